// V8's tier-up thresholds in the binary's process: raised for the commands that evaluate policies
// on a V8 that has the flags, set before any chunk compiles so that the code kept for a start
// is read back by the next.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { EVALUATING_COMMANDS, LATER_TIER_UP, TIERING_FLAGS_V8, tierUpLater } from '../../src/cli/tiering.js';
import { CLI, demoSnapshot, tempDir } from './helpers.js';

describe('tierUpLater', () => {
  const NODE_24_V8 = '13.6.233.17-node.37';
  const setFlags = () => {
    const set: string[] = [];
    return { set, fn: (flags: string) => set.push(flags) };
  };

  it('raises the thresholds for a command that evaluates policies, on Node 24\'s V8', () => {
    const { set, fn } = setFlags();
    expect(tierUpLater('check', NODE_24_V8, fn)).toBe(true);
    expect(set).toEqual([LATER_TIER_UP.join(' ')]);
    expect(set[0]).toBe('--invocation-count-for-maglev=4000 --invocation-count-for-turbofan=30000 --invocation-count-for-maglev-osr=1000 --invocation-count-for-osr=5000 --invocation-count-for-early-optimization=300');
  });

  it('leaves V8 alone for another command, and on a V8 whose flags these are not (Node 20, a later one)', () => {
    const { set, fn } = setFlags();
    expect(tierUpLater('validate', NODE_24_V8, fn)).toBe(false);
    expect(tierUpLater('other', NODE_24_V8, fn)).toBe(false);
    expect(tierUpLater('check', '11.3.244.8-node.33', fn)).toBe(false);
    expect(tierUpLater('check', '14.1.146.11-node.9', fn)).toBe(false);
    expect(tierUpLater('check', '12.13.1', fn)).toBe(false);
    expect(set).toEqual([]);
  });

  it('names commands the program has, each one that reads an instance', async () => {
    const io = { stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: '/' };
    const program = await buildProgram({ io, exitCode: 0 }, ['node', 'steward', 'completion']);
    const readsAnInstance = program.commands.filter((c) => c.options.some((o) => o.long === '--base-url')).map((c) => c.name());
    expect([...EVALUATING_COMMANDS].filter((name) => !readsAnInstance.includes(name))).toEqual([]);
  });

  it('every flag is one this V8 has, when it is Node 24\'s (V8 prints "unrecognized flag" for another)', () => {
    if (!TIERING_FLAGS_V8.test(process.versions.v8)) return;
    const r = spawnSync(process.execPath, [...LATER_TIER_UP, '-e', '0'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });
});

describe('the binary', () => {
  /** A start with the binary's log on: its status, stderr's other lines, whether it tiered up later, and how each chunk's code was had. */
  const start = (args: string[], env: NodeJS.ProcessEnv) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...env, NODE_DEBUG: 'steward' } });
    const tiered = /^STEWARD \d+: V8 tiers up later: (true|false)$/m.exec(r.stderr)?.[1];
    const caches = [...new Set([...r.stderr.matchAll(/^STEWARD \d+: chunk \S+: code cache (\w+)$/gm)].map((m) => m[1]))];
    const other = r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('STEWARD '));
    return { status: r.status, tiered, caches, other };
  };

  it('tiers up later for `check` on Node 24 (not `validate`), and reads back the code its previous start kept', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: tempDir('steward-tiering-') };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const check = ['check', '--from', demoSnapshot(), '-c', 'demo/steward.yaml', '--format', 'json', '--quiet'];
    const expected = String(TIERING_FLAGS_V8.test(process.versions.v8));
    // The first start leaves a marker, the second keeps the code, the third reads all of it.
    expect(start(check, env)).toEqual({ status: 1, tiered: expected, caches: ['miss'], other: [] });
    expect(start(check, env)).toEqual({ status: 1, tiered: expected, caches: ['miss'], other: [] });
    expect(start(check, env)).toEqual({ status: 1, tiered: expected, caches: ['hit'], other: [] });
    expect(start(['validate', '-c', 'demo/steward.yaml'], env)).toMatchObject({ status: 0, tiered: 'false', other: [] });
  });
});
