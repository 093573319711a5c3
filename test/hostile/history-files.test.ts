// A crafted history file: triggers, views and virtual tables planted in it never run (a history
// holds exactly steward's schema objects or is refused, exit 2, named, the file untouched), a
// malformed stored value is exit 2 naming the history and the row, and no stored value reaches
// the HTML page as markup.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js/dist/sql-wasm-inline.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunHistory, recordReport } from '../../src/history/index.js';
import { formatReport } from '../../src/report/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { makeFinding, makeReport } from '../fixtures/report.js';
import { runCli, sandboxEnv, tempDir } from '../cli/helpers.js';
import { sampleReport } from '../history/sample-report.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

/** A history of two runs written by steward, then changed by `sql` as an attacker would. */
async function crafted(sql: string): Promise<string> {
  const file = path.join(tempDir('steward-crafted-'), 'history.sqlite');
  const h = await openRunHistory(file, 'history.sqlite', 'test');
  await recordReport(h, sampleReport(2, undefined, '2026-11-01T00:00:00.000Z'), 'hash');
  await recordReport(h, sampleReport(1, undefined, '2026-11-02T00:00:00.000Z'), 'hash');
  await h.close();
  const SQL = await initSqlJs();
  const db = new SQL.Database(readFileSync(file));
  db.run(sql);
  writeFileSync(file, db.export());
  db.close();
  return file;
}

const check = (file: string) =>
  runCli(['check', '--config', 'demo/steward.yaml', '--only', 'workflows-are-named', '--history', file, '--format', 'json'], { env: sandboxEnv(sandbox) });

describe('schema objects planted in a history file', () => {
  it.each([
    ['trigger', "CREATE TRIGGER rewrite AFTER INSERT ON runs BEGIN UPDATE runs SET gate = 'pass'; END;", 'a trigger "rewrite"'],
    ['view', 'CREATE VIEW latest AS SELECT * FROM runs;', 'a view "latest"'],
    ['table', 'CREATE TABLE extra (x);', 'a table "extra"'],
    ['changed index', 'DROP INDEX spans_last; CREATE INDEX spans_last ON spans (instance);', 'steward\'s index "spans_last" was changed'],
  ])('a %s is refused before anything is recorded: exit 2, the file untouched', async (_, sql, named) => {
    const file = await crafted(sql);
    const before = readFileSync(file);
    const r = await check(file);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a steward run history:');
    expect(r.stderr).toContain(named);
    expect(sandbox.totalRequests()).toBe(0);
    expect(readFileSync(file).equals(before)).toBe(true);
  });
});

describe('malformed stored values', () => {
  it.each([
    ['a gate that is markup', `UPDATE runs SET gate = '"><meta http-equiv=refresh content=0>' WHERE id = 2`, 'history table runs, row id 2: gate is "\\"><meta http-equiv=refresh content=0>", not one of pass, fail, error'],
    ['counts that are not JSON', `UPDATE runs SET by_severity = 'not json' WHERE id = 1`, 'history table runs, row id 1: by_severity is not JSON'],
    ['a severity that is markup', `UPDATE texts SET severity = 'x"><b>' WHERE fingerprint = 'fp-p-one-0'`, 'history table texts, row id 1, fingerprint "fp-p-one-0": severity is "x\\"><b>", not one of info, low, medium, high, critical'],
    ['a count that is text', `UPDATE runs SET violations = 'many' WHERE id = 2`, 'history table runs, row id 2: violations is "many", not a count'],
    ['a policy status that is bytes', `UPDATE policy_spans SET status = x'41'`, 'history table policy_spans, row of run 1, policy "p-one": status is object, not text'],
    ['a finding status that is markup', `UPDATE spans SET status = '<i>' WHERE id = 1`, 'history table spans, row id 1, fingerprint "fp-p-one-0": status is "<i>", not one of violation, waived'],
  ])('%s: steward diff is exit 2 naming the history and the row', async (_, sql, message) => {
    const file = await crafted(sql);
    const r = await runCli(['diff', '1', '2', '--history', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.basename(file)}`);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/SyntaxError|at .*\.ts:/);
  });
});

describe('the HTML page', () => {
  it('escapes every value, a crafted severity, status and gate included', () => {
    const attack = '"><meta http-equiv="refresh" content="0;url=https://evil.example">';
    const report = makeReport({ findings: [makeFinding({ severity: attack as never, status: attack as never, lifecycle: attack as never })] });
    report.history = { file: 'h.sqlite', run: 1, new: 0, open: 0, reopened: 0, fixed: 0, trend: [{ run: 1, startedAt: 'x', gate: attack as never, violations: 1, bySeverity: report.summary.bySeverity, new: 0, reopened: 0, fixed: 0 }] };
    const html = formatReport('html', report, { color: false });
    expect(html).not.toContain('<meta http-equiv="refresh"');
    expect(html).toContain('&lt;meta http-equiv=&quot;refresh&quot;');
    expect(html).toMatch(/content="default-src 'none'; base-uri 'none'; form-action 'none';/);
  });
});
