// A run that saw only part of a kind (report schedules listed with filter=USER: the token user's
// own) says so in every format, and is exit 3 unless the config accepts it: a scheduled audit
// that silently checked a subset would be a pass by omission.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { summaryMarkdown } from '../../src/action/summary.js';
import type { Report } from '../../src/core/model.js';
import { copyDemo, runCli, sandboxEnv, tempDir } from '../cli/helpers.js';
import { junitXsdProblems } from '../report/junit-xsd.js';
import { sarifValidator } from '../report/schema-validators.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ adminGrant: false });
});
afterAll(() => sandbox.close());

const PARTIAL = "report schedules were listed with filter=USER (instance.scheduleFilter): only the token user's schedules were checked, not the whole instance";
const ONLY = ['--only', 'no-misconfigured-schedules', '--only', 'enabled-schedules-have-recipients'];

function narrowed(): string {
  const dir = copyDemo();
  appendFileSync(path.join(dir, 'steward.yaml'), 'instance:\n  scheduleFilter: USER\n');
  return dir;
}

async function allFormats(dir: string) {
  const out = tempDir('steward-partial-');
  const files = {
    text: path.join(out, 'r.txt'),
    json: path.join(out, 'r.json'),
    sarif: path.join(out, 'r.sarif'),
    junit: path.join(out, 'r.xml'),
    markdown: path.join(out, 'r.md'),
    github: path.join(out, 'r.github'),
    html: path.join(out, 'r.html'),
  };
  const outputs = Object.entries(files).flatMap(([format, file]) => ['--output', `${format}=${file}`]);
  const r = await runCli(['check', '--config', 'steward.yaml', ...ONLY, ...outputs], { cwd: dir, env: sandboxEnv(sandbox) });
  const read = (f: keyof typeof files) => readFileSync(files[f], 'utf8');
  return { r, read };
}

describe('partial coverage', () => {
  it('is said in text, JSON, SARIF, JUnit, markdown, GitHub annotations, HTML and the job summary; exit 3', async () => {
    const { r, read } = await allFormats(narrowed());
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`steward: partial coverage of reportSchedule: ${PARTIAL}; its failOn-level policies decide nothing: exit 3 unless acceptPartialCoverage names it`);
    const json = JSON.parse(read('json')) as Report;
    expect(json.summary.gate).toBe('error');
    expect(json.coverage).toEqual([expect.objectContaining({ kind: 'reportSchedule', completeWith: 'content.admin', partial: PARTIAL, accepted: false, blocking: true })]);
    const note = `reportSchedule: ${PARTIAL} (${json.coverage![0].listed} listed; its policies at or above failOn decide nothing: exit 3 unless acceptPartialCoverage names it)`;
    // Text wraps at 80 columns: compare without the line breaks.
    expect(read('text').replace(/\n\s+/g, ' ')).toContain(note);
    expect(read('markdown')).toContain(`**Partial coverage (the listing did not show the whole instance)**\n\n- ${note}`);
    expect(summaryMarkdown(json)).toContain(note);
    const sarif = JSON.parse(read('sarif'));
    expect(sarifValidator()(sarif)).toEqual([]);
    expect(sarif.runs[0].invocations[0]).toMatchObject({ executionSuccessful: false });
    expect(sarif.runs[0].invocations[0].toolExecutionNotifications).toContainEqual({ level: 'error', message: { text: note }, descriptor: { id: 'partial-coverage' } });
    const junit = read('junit');
    expect(await junitXsdProblems(junit)).toEqual([]);
    expect(junit.match(/<property name="coverage" value="partial: reportSchedule: [^"]+"\/>/g)).toHaveLength(2);
    expect(read('github').split('\n')).toContain(`::error title=partial coverage::${note}`);
    expect(read('html')).toContain(`<h2 id="partial-h">Partial coverage (the listing did not show the whole instance)</h2><ul><li>${note.replace(/'/g, '&#39;')}</li></ul>`);
  });

  it('accepted by acceptPartialCoverage: said as accepted, and the policies decide the gate again', async () => {
    const dir = narrowed();
    writeFileSync(path.join(dir, 'steward.yaml'), `${readFileSync(path.join(dir, 'steward.yaml'), 'utf8')}acceptPartialCoverage: [reportSchedule]\n`);
    const { r, read } = await allFormats(dir);
    const json = JSON.parse(read('json')) as Report;
    expect(json.coverage![0]).toMatchObject({ partial: PARTIAL, accepted: true, blocking: false });
    expect(r.code).toBe(json.summary.violations > 0 ? 1 : 0);
    expect(json.summary.gate).not.toBe('error');
    expect(read('markdown')).toContain('accepted by acceptPartialCoverage');
    expect(r.stderr).toContain(`steward: partial coverage of reportSchedule: ${PARTIAL}; accepted (acceptPartialCoverage)`);
  });

  it('a kind no listing leaves out has no partial note, and the whole-instance filter blocks nothing', async () => {
    const { r, read } = await allFormats(copyDemo());
    const json = JSON.parse(read('json')) as Report;
    expect(r.code).toBe(3); // the token lacks content.admin: filter=ALL is refused, an error of its own
    expect(json.coverage!.every((c) => c.partial === null && !c.blocking)).toBe(true);
    expect(read('markdown')).not.toContain('Partial coverage');
  });

  it('an unknown kind in acceptPartialCoverage is bad input at its position, nothing sent', async () => {
    const dir = narrowed();
    appendFileSync(path.join(dir, 'steward.yaml'), 'acceptPartialCoverage: [reportSchedules]\n');
    sandbox.resetCounts();
    const r = await runCli(['check', '--config', 'steward.yaml'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/steward\.yaml:\d+:\d+: .*acceptPartialCoverage/);
    expect(sandbox.totalRequests()).toBe(0);
  });
});
