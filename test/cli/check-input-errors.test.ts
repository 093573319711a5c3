// `steward check` (the built CLI) on bad policies and manifests: exit 2, each problem at its
// exact file:line:column, nothing on stdout and not one request to the instance (DESIGN §4, §9).
// Every expected line:column below is counted by hand from the text written in that case.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { type CliResult, copyDemo, runCli } from './helpers.js';

const TOKEN = 'tok_check_input_SECRET_77';
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

/**
 * A valid local policy, one key per line. With the defaults its lines are:
 *   1 `policies:`  2 `  - id: …` (value at col 9)  3 title  4 description
 *   5 `    severity: high` (value at col 15)  6 `    resource: queue` (value at col 15)
 *   7 `    assert: "true"` (the quote at col 13)  8 message  [9 any extra key, e.g. fix]
 */
function policy(id: string, over: Record<string, string> = {}): string {
  const fields = { id, title: 'Local check', description: 'd', severity: 'high', resource: 'queue', assert: '"true"', message: 'm', ...over };
  const lines = Object.entries(fields).map(([key, value], i) => `${i === 0 ? '  - ' : '    '}${key}: ${value}`);
  return `policies:\n${lines.join('\n')}\n`;
}

const BAD_QUEUE_MANIFEST =
  'queue: q-marketing\npermissions:\n  - { id: g-40, name: Marketing Ops, type: ROBOT, permissions: [ADMIN] }\n';
// Line 3: `  - { id: g-40, name: Marketing Ops, type: ` is 43 characters, so ROBOT starts at col 44.
const BAD_QUEUE_PREFIX = 'permissions/queues/marketing.yaml:3:44: ';
const BAD_QUEUE_SAYS = 'permissions[0].type must be one of USER, GROUP (got "ROBOT")';

/**
 * A copy of demo/ whose config also loads a local policies/ folder, with `files` written into
 * it (paths relative to the workspace), checked against the sandbox by the built CLI.
 */
async function checkWith(files: Record<string, string>): Promise<CliResult> {
  const dir = copyDemo();
  mkdirSync(path.join(dir, 'policies'));
  const config = path.join(dir, 'steward.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace('policies: [builtin]\n', 'policies: [builtin, policies/]\n'));
  for (const [rel, text] of Object.entries(files)) writeFileSync(path.join(dir, rel), text);
  return runCli(['check', '--base-url', sandbox.baseUrl, '--workflow-url', sandbox.workflowUrl], {
    cwd: dir,
    env: { STEWARD_TOKEN: TOKEN },
  });
}

/**
 * Exit 2, one stderr line per problem (in order) starting with its exact `file:line:col: `
 * prefix and saying what is wrong, then the summary; no stdout, the token nowhere, no request.
 */
function expectRefused(r: CliResult, problems: [prefix: string, says: string][]): void {
  const summary = problems.length === 1 ? 'bad input' : `${problems.length} input problems`;
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(problems.length + 1);
  problems.forEach(([prefix, says], i) => {
    expect(lines[i]!.startsWith(prefix), `line ${i + 1} ${JSON.stringify(lines[i])} starts with ${prefix}`).toBe(true);
    expect(lines[i]!.slice(prefix.length)).toContain(says);
  });
  expect(lines.at(-1)).toBe(`steward: ${summary}; nothing was sent to the API`);
  expect(r.stderr).not.toContain(TOKEN);
  expect(sandbox.totalRequests()).toBe(0);
}

describe('steward check against a live instance refuses bad input before any request', () => {
  it('control: the same workspace with a valid local policy does query the instance', async () => {
    const r = await checkWith({ 'policies/local.yaml': policy('local-queue-check') });
    expect(r.code).toBe(1); // the demo's planted violations
    expect(sandbox.totalRequests()).toBeGreaterThan(0);
  });

  it('a YAML syntax error (unquoted colon in a value)', async () => {
    // Line 3 `    title: Queues: clean`: the value starts at col 12.
    const r = await checkWith({ 'policies/bad.yaml': policy('local-x', { title: 'Queues: clean' }) });
    expectRefused(r, [['policies/bad.yaml:3:12: ', 'YAML syntax error: Nested mappings are not allowed in compact mappings']]);
  });

  it('a schema violation (severity: urgent)', async () => {
    const r = await checkWith({ 'policies/bad.yaml': policy('local-x', { severity: 'urgent' }) });
    expectRefused(r, [['policies/bad.yaml:5:15: ', 'severity: must be one of: info, low, medium, high, critical']]);
  });

  it('a CEL syntax error in assert, at the offending token inside the string', async () => {
    // Line 7 `    assert: "resource.id != '' &&"`: the quote is col 13, the expression starts at
    // col 14, and the `&&` is at offset 18 of the expression: col 32.
    const r = await checkWith({ 'policies/bad.yaml': policy('local-x', { assert: `"resource.id != '' &&"` }) });
    expectRefused(r, [['policies/bad.yaml:7:32: ', 'CEL syntax error']]);
  });

  it('an unknown resource kind', async () => {
    const r = await checkWith({ 'policies/bad.yaml': policy('local-x', { resource: 'dashboard' }) });
    expectRefused(r, [['policies/bad.yaml:6:15: ', 'unknown resource kind "dashboard"']]);
  });

  it('a fix kind the resource kind does not have (publicAccess on a queue policy)', async () => {
    // Line 9 `    fix: { publicAccess: false }`: the key publicAccess starts at col 12.
    const r = await checkWith({ 'policies/bad.yaml': policy('local-x', { fix: '{ publicAccess: false }' }) });
    expectRefused(r, [['policies/bad.yaml:9:12: ', `unknown fix kind 'publicAccess' for resource kind 'queue' (allowed: ${Object.keys(RESOURCE_KINDS.queue.fixes ?? {}).join(', ')})`]]);
  });

  it('a word a closed vocabulary never holds, in an expression or in an override of a built-in policy', async () => {
    // Line 7 `    assert: "resource.state != 'Deleted'"`: the expression starts at col 14, the word at offset 18: col 32.
    const r = await checkWith({ 'policies/bad.yaml': policy('local-x', { resource: 'user', assert: `"resource.state != 'Deleted'"` }) });
    expectRefused(r, [['policies/bad.yaml:7:32: ', "type error: 'Deleted' is none of the values this field takes (active, pending, deactivated, deleted) (did you mean 'deleted'?), so '!=' is always true"]]);
    // The platform's word for a certified card where the document holds ACTIVE: the built-in policy would pass every card.
    const config = 'steward.yaml';
    const dir = copyDemo();
    const text = readFileSync(path.join(dir, config), 'utf8');
    writeFileSync(path.join(dir, config), text.replace('params:\n', 'params:\n  scheduled-cards-certification-current: { currentStates: [ACTIVE, CERTIFIED] }\n'));
    const line = text.split('\n').indexOf('params:') + 2;
    const o = await runCli(['check', '--base-url', sandbox.baseUrl, '--workflow-url', sandbox.workflowUrl], { cwd: dir, env: { STEWARD_TOKEN: TOKEN } });
    expectRefused(o, [[`steward.yaml:${line}:3: `, "params.scheduled-cards-certification-current.currentStates: 'CERTIFIED' is none of the values the policy compares it with (ACTIVE, EXPIRED, PENDING, REQUESTED, null)"]]);
  });

  it('a duplicate policy id across two files, pointing at the second and naming the first', async () => {
    const r = await checkWith({ 'policies/a.yaml': policy('local-twice'), 'policies/b.yaml': policy('local-twice') });
    expectRefused(r, [['policies/b.yaml:2:9: ', "duplicate policy id 'local-twice' (first defined at policies/a.yaml:2:9)"]]);
  });

  it('a bad manifest value (queue entry type: ROBOT)', async () => {
    const r = await checkWith({ 'permissions/queues/marketing.yaml': BAD_QUEUE_MANIFEST });
    expectRefused(r, [[BAD_QUEUE_PREFIX, BAD_QUEUE_SAYS]]);
  });

  it('two problems in one run, a policy and a manifest: both reported', async () => {
    const r = await checkWith({
      'policies/bad.yaml': policy('local-x', { severity: 'urgent' }),
      'permissions/queues/marketing.yaml': BAD_QUEUE_MANIFEST,
    });
    expectRefused(r, [
      ['policies/bad.yaml:5:15: ', 'severity: must be one of'],
      [BAD_QUEUE_PREFIX, BAD_QUEUE_SAYS],
    ]);
  });
});

describe('files the commands write or read that cannot be (a folder, a path through a file)', () => {
  it('evidence --out, snapshot --out, history and diff --history: exit 2 naming the file, not one request', async () => {
    const dir = copyDemo();
    mkdirSync(path.join(dir, 'taken'));
    const env = { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: TOKEN };
    const run = async (args: string[]) => {
      const r = await runCli([...args, '--config', 'steward.yaml', '--quiet'], { cwd: dir, env });
      return [r.code, r.stdout, r.stderr.split('\n')[0]];
    };
    expect(await run(['evidence', '--out', 'steward.yaml'])).toEqual([2, '', `--out: ${path.join(dir, 'steward.yaml')} is a file: an evidence pack goes into a new directory`]);
    expect(await run(['evidence', '--out', 'steward.yaml/pack'])).toEqual([2, '', `--out: ${path.join(dir, 'steward.yaml', 'pack')} cannot hold the pack: ${path.join(dir, 'steward.yaml')} is not a directory`]);
    expect(await run(['snapshot', '--out', 'taken'])).toEqual([2, '', '--out: taken: is a directory']);
    expect(await run(['history', '--history', 'taken'])).toEqual([2, '', 'taken: is a directory, not a history file']);
    expect(await run(['diff', '--history', 'taken'])).toEqual([2, '', 'taken: is a directory, not a history file']);
    expect(await run(['check', '--history', 'taken'])).toEqual([2, '', 'taken: cannot write the run history here: is a directory']);
    expect(sandbox.totalRequests()).toBe(0);
  });
});
