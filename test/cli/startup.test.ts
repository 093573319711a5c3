// Start-up: `steward --version` answers from the entry chunk alone (no dependency is loaded);
// other commands load the program on demand. A reader that closes the pipe early is no error.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const CLI = path.resolve('dist/cli.js');

/** The node_modules packages a CLI invocation loads (recorded by a module resolve hook). */
function packagesLoaded(args: string[]): string[] {
  const dir = tempDir('steward-startup-');
  const log = path.join(dir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url);
  if (m) appendFileSync(${JSON.stringify(log)}, m[1] + '\\n');
  return r;
}`,
  );
  writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${path.join(dir, 'hooks.mjs')}`)});\n`);
  const r = spawnSync(process.execPath, ['--import', path.join(dir, 'register.mjs'), CLI, ...args], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  return [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))].sort();
}

describe('start-up', () => {
  it('--version loads no dependency; list loads the program', () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
    // The version, and the commit the binary was built from (the suite builds in a checkout).
    const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    expect(spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' }).stdout).toBe(`${version} (commit ${commit})\n`);
    expect(packagesLoaded(['--version'])).toEqual([]);
    expect(packagesLoaded(['list', '--config', 'builtin'])).toEqual(expect.arrayContaining(['commander', 'yaml', 'ajv', '@bufbuild/cel']));
  });

  it('a reader that closes the pipe early: exit 0, nothing on stderr', async () => {
    const child = spawn(process.execPath, [CLI, 'list', '--config', 'builtin'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });
});
