// The token in use, before it stops every scheduled run with a 401: with instance.tokenId (the
// access-token id, never the token) check and doctor say when it expires within
// tokenWarningDays, has expired, is not listed, or cannot be looked up, in every format; the
// verdict is the policies' (a warning, never a reason to fail).
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { summaryMarkdown } from '../../src/action/summary.js';
import type { Report } from '../../src/core/model.js';
import { doctor } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv, tempDir } from '../cli/helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';
import { sarifValidator } from '../report/schema-validators.js';

const DAY = 86_400_000;
const ID = 555_001;
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.state.people.accessTokens = sandbox.state.people.accessTokens.filter((t) => t.id !== ID);
});

function plantToken(expiresInMs: number): void {
  sandbox.state.people.accessTokens.push({ id: ID, name: 'steward-ci', ownerId: 7, ownerName: null, ownerEmail: null, expires: Date.now() + expiresInMs });
}

function configured(extra = ''): string {
  const dir = copyDemo();
  appendFileSync(path.join(dir, 'steward.yaml'), `instance:\n  tokenId: ${ID}\n${extra}`);
  return dir;
}

async function run(dir: string) {
  const out = tempDir('steward-token-');
  const files = { json: 'r.json', text: 'r.txt', sarif: 'r.sarif', junit: 'r.xml', markdown: 'r.md', github: 'r.github', html: 'r.html' };
  const outputs = Object.entries(files).flatMap(([format, file]) => ['--output', `${format}=${path.join(out, file)}`]);
  const r = await runCli(['check', '--config', 'steward.yaml', '--only', 'workflows-are-named', ...outputs], { cwd: dir, env: sandboxEnv(sandbox) });
  const read = (f: keyof typeof files) => readFileSync(path.join(out, files[f]), 'utf8');
  return { r, read, json: JSON.parse(read('json')) as Report };
}

describe('the token in use expiring', () => {
  it('within tokenWarningDays: said in every format, and the gate is the policies’ own', async () => {
    plantToken(5 * DAY + 3_600_000);
    const dir = configured();
    sandbox.resetCounts();
    const { r, read, json } = await run(dir);
    const expires = new Date(sandbox.state.people.accessTokens.find((t) => t.id === ID)!.expires).toISOString();
    const note = `the token in use (access token ${ID}) expires on ${expires.slice(0, 10)}, in 5 days: issue a new one and update the secret before then`;
    expect(json.token).toEqual({ id: String(ID), expires, daysLeft: 5, note });
    expect([r.code, json.summary.gate]).toEqual([1, 'fail']);
    expect(r.stderr).toContain(`steward: ${note}`);
    expect(read('text').replace(/\n\s+/g, ' ')).toContain(`The token in use: ${note}`);
    expect(read('markdown')).toContain(`**The token in use**\n\n- ${note}`);
    expect(summaryMarkdown(json)).toContain(note);
    expect(sarifValidator()(JSON.parse(read('sarif')))).toEqual([]);
    expect(JSON.parse(read('sarif')).runs[0].invocations[0].toolExecutionNotifications).toContainEqual({ level: 'warning', message: { text: note }, descriptor: { id: 'token-expiry' } });
    expect(await junitXsdProblems(read('junit'))).toEqual([]);
    expect(read('junit')).toContain(`<property name="token" value="${note}"/>`);
    expect(read('github').split('\n')).toContain(`::warning title=token expiry::${note}`);
    expect(read('html')).toContain(`<h2 id="token-h">The token in use</h2><ul><li>${note}</li></ul>`);
    // The list is read once, and counted with the run's other requests.
    expect(sandbox.counts.listAccessTokens).toBe(1);
    expect(json.http.requests).toBe(sandbox.totalRequests());
  });

  it('beyond the window: nothing is said; a tokenWarningDays of 30 says it again', async () => {
    plantToken(20 * DAY);
    expect((await run(configured())).json.token).toBeUndefined();
    const wider = await run(configured('  tokenWarningDays: 30\n'));
    expect(wider.json.token?.daysLeft).toBe(19);
  });

  it('expired, not listed, or a list that cannot be read: each said, none fails the run', async () => {
    plantToken(-2 * DAY);
    const expired = await run(configured());
    expect(expired.json.token?.note).toMatch(new RegExp(`^the token in use \\(access token ${ID}\\) expired on \\d{4}-\\d{2}-\\d{2}$`));
    sandbox.state.people.accessTokens = sandbox.state.people.accessTokens.filter((t) => t.id !== ID);
    const gone = await run(configured());
    expect(gone.json.token?.note).toBe(`access token ${ID} (instance.tokenId) is not in the access-token list: deleted, or listed under another user the token user cannot see`);
    sandbox.scriptFault('listAccessTokens', { status: 403, body: '' });
    const refused = await run(configured());
    expect(refused.json.token?.note).toMatch(/^the expiry of the token in use \(access token 555001\) is unknown: the access-token list could not be read \(.*403.*\); the token user needs developer\.token\.manage$/);
    expect([expired.r.code, gone.r.code, refused.r.code]).toEqual([1, 1, 1]);
  });

  it('doctor: a warning row, and still all checks ok', async () => {
    plantToken(3 * DAY + 3_600_000);
    const dir = configured();
    const report = await doctor({ config: path.join(dir, 'steward.yaml'), cwd: dir, env: {}, baseUrl: sandbox.baseUrl, token: sandbox.token, only: ['workflows-are-named'] });
    const row = report.checks.find((c) => c.id === 'tokenExpiry')!;
    expect(row).toMatchObject({ status: 'warn', detail: expect.stringContaining(`expires on`) });
    expect(row.detail).toContain('in 3 days');
    expect(report.ok).toBe(true);
  });

  it('tokenId is an id, not the token: a value that is not digits is bad input at its position', async () => {
    const dir = copyDemo();
    appendFileSync(path.join(dir, 'steward.yaml'), 'instance:\n  tokenId: abc-secret\n');
    sandbox.resetCounts();
    const r = await runCli(['check', '--config', 'steward.yaml'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/steward\.yaml:\d+:\d+: .*tokenId/);
    expect(sandbox.totalRequests()).toBe(0);
  });
});
