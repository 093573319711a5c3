// Microsoft's SARIF multitool (the validator GitHub's own SARIF guidance points to) on the demo
// report, with the SARIF, GitHub (Gh) and GitHub Advanced Security (Ghas) rule sets: no error and
// no warning.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv, tempDir } from '../cli/helpers.js';

// The linux package's postinstall only sets the executable bit; npm here runs no install scripts.
const MULTITOOL = path.resolve('node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-sarif-multitool-1' });
});
afterAll(() => sandbox.close());

describe('sarif-multitool validate (Sarif, Gh, Ghas)', () => {
  it('the demo report: 0 errors and 0 warnings', { timeout: 120_000 }, async () => {
    expect(existsSync(MULTITOOL)).toBe(true);
    chmodSync(MULTITOOL, 0o755);
    const r = await runCli(['check', '--config', 'steward.yaml', '--format', 'sarif'], { cwd: copyDemo(), env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    const dir = tempDir('steward-multitool-');
    const input = path.join(dir, 'demo.sarif');
    const output = path.join(dir, 'validation.sarif');
    writeFileSync(input, r.stdout);
    const v = spawnSync(MULTITOOL, ['validate', input, '--output', output, '--rule-kind', 'Sarif;Gh;Ghas'], { encoding: 'utf8', env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } });
    expect(v.status, v.stdout + v.stderr).toBe(0);
    const results = (JSON.parse(readFileSync(output, 'utf8')).runs[0].results ?? []) as { ruleId: string; level?: string; message: { text?: string } }[];
    const reported = results.filter((x) => x.level === 'error' || x.level === 'warning' || x.level === undefined);
    expect(reported.map((x) => `${x.ruleId}: ${x.message.text ?? ''}`)).toEqual([]);
    console.log(`sarif-multitool: ${results.length} results of any level on the demo report (0 errors, 0 warnings)`);
  });
});
