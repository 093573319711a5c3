import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { sqliteDriver } from '../../src/history/sqlite-drivers.js';
import { CLI, REPO, spawnProcess, tempDir } from '../cli/helpers.js';

// Each test reads fresh modules: the choice is the process's, and other files' CLI runs set it.
const fresh = async () => {
  vi.resetModules();
  return import('../../src/history/wasm-tier.js');
};

describe("sql.js's WebAssembly compiler (wasm-tier.ts)", () => {
  it("leaves V8's flags alone in a process that calls the library", async () => {
    const { beforeWasmCompiles } = await fresh();
    const flags: string[] = [];
    await beforeWasmCompiles((f) => flags.push(f));
    expect(flags).toEqual([]);
  });

  it('asks for the baseline compiler only once a process of steward\'s own chose it', async () => {
    const tier = await fresh();
    tier.compileWasmBaselineOnly();
    const flags: string[] = [];
    await tier.beforeWasmCompiles((f) => flags.push(f));
    expect(flags).toEqual(['--liftoff-only']);
  });

  it('the CLI chooses it for its process, at the start of a run', async () => {
    const tier = await fresh();
    const { run } = await import('../../src/cli/main.js');
    const before: string[] = [];
    await tier.beforeWasmCompiles((f) => before.push(f));
    expect(before).toEqual([]);
    const out: string[] = [];
    const io = { stdout: { write: (t: string) => out.push(t) }, stderr: { write: () => true }, env: {}, cwd: process.cwd() };
    expect(await run(['node', 'steward', '--help'], io)).toBe(0);
    expect(out.join('')).toContain('Usage: steward');
    const after: string[] = [];
    await tier.beforeWasmCompiles((f) => after.push(f));
    expect(after).toEqual(['--liftoff-only']);
  });

  it('only the CLI chooses it: no library module calls compileWasmBaselineOnly', () => {
    const src = path.resolve(import.meta.dirname, '../../src');
    const callers = (readdirSync(src, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /compileWasmBaselineOnly\(\)/.test(readFileSync(path.join(src, f), 'utf8')))
      .map((f) => f.split(path.sep).join('/'));
    expect(callers.sort()).toEqual(['cli/main.ts', 'history/wasm-tier.ts']);
  });

  // V8 prints each function it compiles with this flag: the CLI's sql.js compiles with the
  // baseline compiler (Liftoff) only. Only where the CLI opens histories with sql.js (Node 20 and
  // 22); a library process that merely opens one there recompiles a dozen functions with TurboFan.
  it.runIf(sqliteDriver().name === 'sql.js')("the CLI's recording compiles sql.js with Liftoff alone", async () => {
    const file = path.join(tempDir('steward-wasm-'), 'history.sqlite');
    const args = ['--trace-wasm-compilation-times', CLI, 'check', '--sandbox', '--only', 'queue-no-admin-for-users', '--history', file, '--format', 'json'];
    const { code, stdout } = await spawnProcess(process.execPath, args, { cwd: REPO, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    expect(code).toBe(0);
    const compiled = stdout.split('\n').filter((line) => line.startsWith('Compiled function'));
    expect(compiled.filter((line) => line.includes('Liftoff')).length).toBeGreaterThan(100);
    expect(compiled.filter((line) => !line.includes('Liftoff'))).toEqual([]);
  });
});
