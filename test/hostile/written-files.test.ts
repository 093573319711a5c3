// A server that echoes the token (as sent, `\u`-escaped in JSON, base64 inside a Basic
// credential) must not get it into any file steward writes: snapshot, baseline, saved plan,
// report files, the run history, the CLI's code cache. Every file is read back and searched for every form.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, tempDir } from '../cli/helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';
import { sarifValidator } from '../report/schema-validators.js';

const TOKEN = 'tok-5e1d9a7c3b80f264-secret';
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());

const unicode = [...TOKEN].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const basic = Buffer.from(`svc:${TOKEN}`).toString('base64');

/** Each way the token could sit in a file: as is, base64 at any alignment, \u-escaped. */
function leaksIn(text: string): string[] {
  const found: string[] = [];
  if (text.includes(TOKEN)) found.push('plain');
  if (text.includes(unicode)) found.push('\\u');
  for (const lead of ['', 'a', 'ab']) {
    const b64 = Buffer.from(`${lead}${TOKEN}`).toString('base64').slice(4, 20);
    if (text.includes(b64)) found.push(`base64+${lead.length}`);
  }
  if (text.includes(basic)) found.push('basic');
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('files steward writes hold no echoed token', () => {
  it('snapshot, baseline, saved plan, report files and the history, with the token echoed three ways', async () => {
    const stats = { total: 3, onDatasets: 1, onCards: 2, inVisualizations: 0, locked: 0, invalid: 1, invalidLink: 0, archived: 0 };
    // The raw body holds the \u form; parsed, it is the token itself.
    const body = `${JSON.stringify({ ...stats, echo: `Basic ${basic}` }).slice(0, -1)},"raw":"${unicode}"}`;
    const dir = copyDemo();
    writeFileSync(
      path.join(dir, 'echo.yaml'),
      'policies:\n  - { id: echo, title: Echo, severity: high, resource: calculatedFields, assert: "false", message: "{{ resource }}" }\n',
    );
    const env = { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: TOKEN };
    const run = ['--config', 'steward.yaml', '--policies', 'echo.yaml', '--policies', 'builtin'];
    sandbox.scriptFault('getCalculatedFieldStatistics', { status: 200, body }, 3);

    const snap = await runCli(['snapshot', ...run, '--out', 'snap.json'], { cwd: dir, env });
    expect(snap.code).toBe(0);
    const checked = await runCli(['check', ...run, '--history', 'h.sqlite', '--write-baseline', 'base.json', '--output', 'json=r.json', '--output', 'sarif=r.sarif', '--output', 'junit=r.xml', '--output', 'markdown=r.md'], { cwd: dir, env });
    expect(checked.code).toBe(1);
    const fixed = await runCli(['fix', ...run, '--plan-out', 'plan.json'], { cwd: dir, env });
    expect(fixed.code).toBe(0);

    // The echo reached the files, redacted: the finding's message holds it.
    const report = JSON.parse(readFileSync(path.join(dir, 'r.json'), 'utf8')) as { findings: { policy: string; message: string }[] };
    expect(report.findings.find((f) => f.policy === 'echo')?.message).toContain('"echo":"Basic ');
    expect(report.findings.find((f) => f.policy === 'echo')?.message).toContain('"raw":"***"');
    const snapshot = readFileSync(path.join(dir, 'snap.json'), 'utf8');
    expect(snapshot).toContain('"raw":"***"');
    const files = filesUnder(dir);
    expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(['snap.json', 'base.json', 'plan.json', 'r.json', 'r.sarif', 'r.xml', 'r.md', 'h.sqlite']));
    const leaks = files.flatMap((f) => leaksIn(readFileSync(f, 'latin1')).map((form) => `${path.relative(dir, f)}: ${form}`));
    expect(leaks).toEqual([]);
    expect(await junitXsdProblems(readFileSync(path.join(dir, 'r.xml'), 'utf8'))).toEqual([]);
    expect(sarifValidator()(JSON.parse(readFileSync(path.join(dir, 'r.sarif'), 'utf8')))).toEqual([]);
    for (const out of [snap, checked, fixed]) expect(leaksIn(out.stdout + out.stderr)).toEqual([]);
  });

  it('the code cache and kept answers the CLI keeps: compiled code and its input files\' answers only, no value of a run (the binary, a check with the token echoed)', async () => {
    const body = `${JSON.stringify({ total: 1, onDatasets: 1, onCards: 0, inVisualizations: 0, locked: 0, invalid: 1, invalidLink: 0, archived: 0, echo: `Basic ${basic}` }).slice(0, -1)},"raw":"${unicode}"}`;
    sandbox.scriptFault('getCalculatedFieldStatistics', { status: 200, body }, 2);
    const dir = copyDemo();
    const home = tempDir('steward-code-cache-');
    const env = { ...process.env, STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: TOKEN, XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '' };
    // The sandbox answers from this process: the binary runs beside it, not blocking it.
    const check = () =>
      promisify(execFile)(process.execPath, [path.resolve('dist/cli.js'), 'check', '-q', '--config', 'steward.yaml', '--format', 'json', '--fail-on', 'none'], { cwd: dir, env, maxBuffer: 1 << 26 });
    const first = await check();
    expect(JSON.parse(first.stdout).summary.errors).toBe(0);
    await check();
    const cached = filesUnder(path.join(home, 'steward'));
    expect(cached.length).toBeGreaterThanOrEqual(10);
    expect(cached.filter((f) => f.includes(`${path.sep}yaml-answers${path.sep}`)).map((f) => path.basename(f))).toEqual(['check.json']);
    // Strings sit in it as plain bytes (the program's help text does): a token would be found.
    expect(cached.some((f) => readFileSync(f, 'latin1').includes('the demo instance, no setup'))).toBe(true);
    expect(cached.flatMap((f) => leaksIn(readFileSync(f, 'latin1')).map((form) => `${path.basename(f)}: ${form}`))).toEqual([]);
  });
});
