// The checks `npm test` runs before vitest — typecheck, lint, build — at the same time: they
// do not depend on each other, and one after another they took ~18 s of the 2 cores' time
// while each used one. Each one's output is printed when it ends; any failure fails the test.
import { spawn } from 'node:child_process';

const STEPS = ['typecheck', 'lint', 'build'];

function run(step) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', step], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code, signal) => resolve({ step, code: code ?? 1, signal, output }));
  });
}

const results = await Promise.all(STEPS.map(run));
let failed = false;
for (const { step, code, signal, output } of results) {
  // npm's own warnings about the user's npmrc are not the step's output.
  const text = output
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'))
    .join('\n')
    .trim();
  if (text) process.stdout.write(`--- ${step}\n${text}\n`);
  if (code !== 0) {
    failed = true;
    process.stderr.write(`${step} failed (${signal ?? `exit ${code}`})\n`);
  }
}
process.exit(failed ? 1 : 0);
