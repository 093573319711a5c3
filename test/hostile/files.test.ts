// A config cannot read local files outside its project into requests and reports: absolute
// paths, `..` escapes, symlinks out and special files are refused at their key (exit 2, nothing
// sent); ids with control characters too. The CLI as a user runs it, against a sandbox.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'secret-token-for-hostile-tests' });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

/** A project folder (inside `outer`, which holds a file the project must not read). */
function project(config: string): { dir: string; outer: string } {
  const outer = tempDir('steward-hostile-');
  writeFileSync(path.join(outer, 'outside.txt'), 'ds-outside\n');
  const dir = path.join(outer, 'project');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'steward.yaml'), config);
  return { dir, outer };
}

async function refused(dir: string) {
  const r = await runCli(['check', '--format', 'json'], { cwd: dir, env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token } });
  expect(r.code).toBe(2);
  expect(sandbox.totalRequests()).toBe(0);
  expect(r.stdout + r.stderr).not.toContain(sandbox.token);
  return r.stderr.split('\n')[0];
}

describe('files named by a config stay inside its project', () => {
  it('scope.datasets: { file: /proc/self/environ } is refused at the key, and the environment is never read', async () => {
    const { dir } = project('policies: [builtin]\nscope:\n  datasets: { file: /proc/self/environ }\n');
    expect(await refused(dir)).toBe(
      `steward.yaml:3:21: scope.datasets.file: "/proc/self/environ" is an absolute path: name a file inside the project (${dir})`,
    );
  });

  it('a `..` escape and a symlink out are refused', async () => {
    const outOfProject = project('policies: [builtin]\nscope:\n  cards: { file: ../outside.txt }\n');
    expect(await refused(outOfProject.dir)).toBe(`steward.yaml:3:18: scope.cards.file: "../outside.txt" leads out of the project (${outOfProject.dir})`);
    const link = project('policies: [builtin]\nscope:\n  datasets: { file: ids.txt }\n');
    symlinkSync(path.join(link.outer, 'outside.txt'), path.join(link.dir, 'ids.txt'));
    expect(await refused(link.dir)).toBe(`steward.yaml:3:21: scope.datasets.file: "ids.txt" is a link out of the project (${link.dir})`);
  });

  it('waivers and policy paths out of the project are refused too', async () => {
    const { dir } = project('policies: [builtin, /etc]\nwaivers: ../outside.txt\n');
    const r = await runCli(['check'], { cwd: dir, env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token } });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      `steward.yaml:1:21: policies: "/etc" is an absolute path: name a file or folder inside the project (${dir})`,
      `steward.yaml:2:10: waivers: "../outside.txt" leads out of the project (${dir})`,
    ]);
  });

  it('a special file inside the project is refused', async () => {
    const { dir } = project('policies: [builtin]\nscope:\n  datasets: { file: dev-null }\n');
    symlinkSync('/dev/null', path.join(dir, 'dev-null'));
    expect(await refused(dir)).toMatch(/^steward\.yaml:3:21: scope\.datasets\.file: "dev-null" is a link out of the project/);
  });

  it('an id holding a NUL or a control character is refused', async () => {
    const { dir } = project('policies: [builtin]\nscope:\n  datasets: ["ds-1\\u0000x", "ds\\u001b[31m"]\n');
    const r = await runCli(['check'], { cwd: dir, env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token } });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      'steward.yaml:3:14: scope.datasets: an id cannot hold control characters',
      'steward.yaml:3:29: scope.datasets: an id cannot hold control characters',
    ]);
    expect(sandbox.totalRequests()).toBe(0);
  });
});
