// The CLI tests run the BUILT binary (dist/cli.js) as a child process, so the build runs once
// before them. Runs that select only other folders (e.g. `vitest run test/engine`) skip it.
import { execFileSync } from 'node:child_process';

export default function setup(): void {
  const filters = process.argv.slice(2).filter((a) => a.startsWith('test/') || a.startsWith('./test/'));
  if (filters.length > 0 && !filters.some((f) => f.replace(/^\.\//, '').startsWith('test/cli'))) return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
