// The real platform's semantics over real HTTP against the sandbox: a repeated schedule id
// across pages ends the list as incomplete, a refused filter=ALL names the grant and the way to
// fall back, the developer-token header is configurable, and data-file entries keep entityType.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { check, evaluate, exitCodeFor, planFixes } from '../../src/index.js';
import { evaluateOn, prepareRun, withConnection } from '../../src/library/index.js';
import { applyFixes } from '../../src/fix/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.configure({ adminGrant: true, overlapPages: false });
  sandbox.resetCounts();
});

/** A copy of the demo with lines appended to its steward.yaml. */
function demoWith(extra = ''): { dir: string; config: string } {
  const dir = copyDemo();
  const config = path.join(dir, 'steward.yaml');
  if (extra) appendFileSync(config, extra);
  return { dir, config };
}

const live = (dir: string, config: string, only: string[]) => ({
  config,
  cwd: dir,
  env: {},
  baseUrl: sandbox.baseUrl,
  token: sandbox.token,
  only,
});

const SCHEDULE_POLICIES = ['no-misconfigured-schedules', 'schedule-timezone-valid', 'enabled-schedules-have-recipients'];

describe('schedule pages', () => {
  it('a schedule id repeated across pages: exit 3, every schedule policy in error naming the duplicate', async () => {
    sandbox.configure({ overlapPages: true });
    const { dir } = demoWith('instance:\n  pageSize: 10\n');
    const r = await runCli(['check', '--config', 'steward.yaml', '--format', 'json', ...SCHEDULE_POLICIES.flatMap((id) => ['--only', id])], {
      cwd: dir,
      env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_TOKEN: sandbox.token },
    });
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as { policies: { id: string; status: string; error: string }[] };
    expect(report.policies.map((p) => [p.id, p.status])).toEqual(SCHEDULE_POLICIES.map((id) => [id, 'error']));
    for (const p of report.policies) {
      expect(p.error).toMatch(
        /^could not collect reportSchedule resources: listReportSchedules: \[GET\] ".*skip=10": the listing is incomplete: id \d+ appears twice \(on the pages at skip=0 and skip=10\)/,
      );
    }
    // Reading stopped at the second page.
    expect(sandbox.counts.listReportSchedules).toBe(2);
  });
});

describe('filter=ALL', () => {
  it('refused (403): the schedule policies error naming the grant and instance.scheduleFilter; exit 3', async () => {
    sandbox.configure({ adminGrant: false });
    const { dir, config } = demoWith();
    const report = await check(live(dir, config, SCHEDULE_POLICIES));
    expect(exitCodeFor(report)).toBe(3);
    expect(report.policies.map((p) => p.status)).toEqual(['error', 'error', 'error']);
    expect(report.policies[0].error).toMatch(
      /^could not collect reportSchedule resources: listing every report schedule \(filter=ALL\) was refused with 403: the token's user needs the content admin \(content\.admin\) grant; or set instance\.scheduleFilter: USER in steward\.yaml to check only the token user's own schedules/,
    );
  });

  it('instance.scheduleFilter: USER lists the token user\'s schedules only, says the coverage is partial, and is exit 3 unless accepted', async () => {
    sandbox.configure({ adminGrant: false });
    const { dir, config } = demoWith('instance:\n  scheduleFilter: USER\n');
    const { report, warnings } = await evaluate(live(dir, config, ['no-misconfigured-schedules']));
    expect(report.summary.errors).toBe(0);
    const own = sandbox.state.schedules.filter((s) => s.owner || s.id % 3 === 0);
    expect(report.policies[0].evaluated).toBe(own.length);
    const partial = "report schedules were listed with filter=USER (instance.scheduleFilter): only the token user's schedules were checked, not the whole instance";
    expect(report.coverage).toEqual([{ instance: 'default', kind: 'reportSchedule', listed: own.length, evaluated: own.length, skippedPolicies: 0, completeWith: 'content.admin', partial, accepted: false, blocking: true }]);
    expect([report.summary.gate, exitCodeFor(report)]).toEqual(['error', 3]);
    expect(warnings).toEqual([`partial coverage of reportSchedule: ${partial}; its failOn-level policies decide nothing: exit 3 unless acceptPartialCoverage names it`]);

    appendFileSync(config, 'acceptPartialCoverage: [reportSchedule]\n');
    const accepted = await evaluate(live(dir, config, ['no-misconfigured-schedules']));
    expect(accepted.report.coverage?.[0]).toMatchObject({ partial, accepted: true, blocking: false });
    expect(accepted.report.summary.gate).toBe(accepted.report.summary.violations > 0 ? 'fail' : 'pass');
    expect(accepted.warnings).toEqual([`partial coverage of reportSchedule: ${partial}; accepted (acceptPartialCoverage)`]);
  });
});

describe('developer-token header', () => {
  it('instance.tokenHeader sends the token in the header the instance expects', async () => {
    const domo = await startSandbox({ tokenHeader: 'X-DOMO-Developer-Token' });
    try {
      const { dir, config } = demoWith();
      const only = ['calculated-fields-valid'];
      const wrong = await check({ ...live(dir, config, only), baseUrl: domo.baseUrl, token: domo.token });
      expect(wrong.policies[0].error).toMatch(/401 Unauthorized — missing, invalid or expired developer token \(sent in X-SERVICE-Developer-Token; developer tokens expire after the lifetime chosen when they were created\)/);
      appendFileSync(config, 'instance:\n  tokenHeader: X-DOMO-Developer-Token\n');
      const right = await check({ ...live(dir, config, only), baseUrl: domo.baseUrl, token: domo.token });
      expect([right.summary.errors, right.summary.violations]).toEqual([0, 1]);
    } finally {
      await domo.close();
    }
  });
});

describe('data-file entries', () => {
  it('a manifest copied from a real read (entityType on each entry) is valid, and the fix sends entityType', async () => {
    const { dir, config } = demoWith();
    writeFileSync(
      path.join(dir, 'permissions/data-files/43.yaml'),
      'dataFile: 43\npublicAccess: false\nentries:\n  - { entityType: USER, entityId: "7", grant: READ_WRITE_DELETE_SHARE_ADMIN, pass: NONE }\n  - { entityType: GROUP, entityId: "9", grant: READ, pass: NONE }\n',
    );
    const options = live(dir, config, ['data-files-no-admin-grant']);
    const prepared = await prepareRun(options);
    const plan = await withConnection(options, prepared, async (connection) =>
      planFixes(await evaluateOn(options, prepared, connection), connection, { displayRoot: dir }),
    );
    expect(plan.changes.map((c) => c.request.body)).toEqual([
      { publicAccess: false, entries: [{ entityType: 'GROUP', entityId: '9', grant: 'READ', pass: 'NONE' }] },
    ]);
    await withConnection(options, prepared, (connection) =>
      applyFixes(plan, { api: connection.api, journalPath: path.join(dir, 'journal.jsonl'), root: dir }),
    );
    expect(sandbox.received).toEqual([
      {
        operation: 'updateFilePermissions',
        method: 'PUT',
        path: '/api/data/v1/data-files/43/permissions',
        body: { publicAccess: false, entries: [{ entityType: 'GROUP', entityId: '9', grant: 'READ', pass: 'NONE' }] },
      },
    ]);
    expect(sandbox.state.dataFilePermissions.get('43')?.entries).toEqual([{ entityType: 'GROUP', entityId: '9', grant: 'READ', pass: 'NONE' }]);
  });
});
