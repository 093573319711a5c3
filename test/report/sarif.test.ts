import { describe, expect, it } from 'vitest';
import type * as Sarif from 'sarif';
import { fileUri, formatSarif, toSarif } from '../../src/report/sarif.js';
import { makeFinding, makePassingReport, makeReport } from '../fixtures/report.js';
import { sarifValidator } from './schema-validators.js';

const validate = sarifValidator();

function render(report = makeReport(), cwd?: string): Sarif.Log {
  return JSON.parse(formatSarif(report, { color: false, cwd })) as Sarif.Log;
}

describe('sarif format', () => {
  it('is valid against the official SARIF 2.1.0 schema', () => {
    expect(validate(render(makeReport(), '/work/repo'))).toEqual([]);
    expect(validate(render(makePassingReport()))).toEqual([]);
    const baseline = makeReport({
      baseline: { file: 'b.json', resolved: [] },
      findings: [makeFinding({ baseline: 'new' }), makeFinding({ baseline: 'known' })],
    });
    expect(validate(render(baseline))).toEqual([]);
  });

  it('the schema check can fail: a broken log is rejected', () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test breaks the log on purpose
    const log = render() as unknown as Record<string, any>;
    log.version = '2.0.0';
    log.runs[0].results[0].level = 'fatal';
    delete log.runs[0].tool.driver.name;
    const paths = validate(log).map((e) => e.instancePath);
    expect(paths).toContain('/version');
    expect(paths).toContain('/runs/0/results/0/level');
    expect(paths).toContain('/runs/0/tool/driver');
  });

  it('has one rule per policy with levels from severity', () => {
    const run = render().runs[0];
    const rules = run.tool.driver.rules!;
    expect(run.tool.driver).toMatchObject({
      name: 'steward',
      fullName: 'steward 0.1.0 (policy-as-code compliance checks)',
      version: '0.1.0',
      semanticVersion: '0.1.0',
    });
    expect(run.automationDetails).toEqual({ id: 'steward/acme.example.com/' });
    expect(run.tool.driver.informationUri).toBe('https://www.npmjs.com/package/@steward-pac/steward');
    expect(rules.map((r) => [r.id, r.defaultConfiguration?.level])).toEqual([
      ['queue-no-admin-for-users', 'error'],
      ['data-file-not-public', 'error'],
      ['schedule-not-misconfigured', 'warning'],
      ['certified-dataset-has-owner-group', 'error'],
      ['card-certified', 'note'],
      ['workflow-has-description', 'note'],
    ]);
    expect(rules[1]).toMatchObject({
      name: 'DataFileNotPublic',
      shortDescription: { text: 'Data files are never public' },
      fullDescription: { text: 'A public data file can be downloaded by anyone with its link.' },
      properties: { tags: ['security', 'exposure'], 'security-severity': '9.5' },
    });
    expect(rules[1].help?.markdown).toContain('**Data files are never public**');
  });

  it('gives every result a location, a fingerprint and its rule; errors are not results', () => {
    const report = makeReport();
    const run = render(report).runs[0];
    expect(run.results).toHaveLength(6); // 7 findings, one of them an error
    for (const r of run.results!) {
      const loc = r.locations![0].physicalLocation!;
      expect(loc.artifactLocation).toMatchObject({ uriBaseId: '%SRCROOT%' });
      expect(loc.region!.startLine).toBeGreaterThan(0);
      expect(run.tool.driver.rules![r.ruleIndex!].id).toBe(r.ruleId);
    }
    const declared = run.results!.find((r) => r.ruleId === 'data-file-not-public')!;
    expect(declared).toMatchObject({
      level: 'error',
      message: { text: 'dataFile/42 publicAccess: Data file 42 (prices.csv) is public' },
      partialFingerprints: { 'steward/v1': 'c3d4e5f60718293a' },
    });
    expect(declared.locations![0].physicalLocation).toEqual({
      artifactLocation: { uri: 'permissions/data-files/42.yaml', uriBaseId: '%SRCROOT%' },
      region: { startLine: 2, startColumn: 15 },
    });
    const live = run.results!.find((r) => r.ruleId === 'schedule-not-misconfigured')!;
    expect(live.level).toBe('warning');
    expect(live.locations![0].physicalLocation!.artifactLocation!.uri).toBe(
      'policies/schedules.yaml',
    );
  });

  it('reports waived findings as accepted external suppressions', () => {
    const waived = render().runs[0].results!.filter((r) => r.suppressions);
    expect(waived).toHaveLength(1);
    expect(waived[0].suppressions).toEqual([
      {
        kind: 'external',
        status: 'accepted',
        justification:
          'break-glass account, reviewed quarterly (owner governance@acme.example, expires 2027-03-31)',
        location: {
          physicalLocation: {
            artifactLocation: { uri: 'waivers.yaml', uriBaseId: '%SRCROOT%' },
            region: { startLine: 2, startColumn: 5 },
          },
        },
      },
    ]);
  });

  it('reports errors as tool execution notifications and fails the invocation on gate error', () => {
    const inv = render().runs[0].invocations![0];
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications).toHaveLength(1);
    expect(inv.toolExecutionNotifications![0]).toMatchObject({
      level: 'error',
      associatedRule: { id: 'certified-dataset-has-owner-group', index: 3 },
    });
    expect(inv.toolConfigurationNotifications!.map((n) => [n.descriptor?.id, n.level])).toEqual([
      ['waiver-expired', 'warning'],
      ['waiver-stale', 'note'],
    ]);
    expect(inv.startTimeUtc).toBe('2026-03-02T09:15:00.000Z');
    expect(inv.endTimeUtc).toBe('2026-03-02T09:15:02.345Z');
    const passing = render(makePassingReport()).runs[0].invocations![0];
    expect(passing.executionSuccessful).toBe(true);
    expect(passing.toolExecutionNotifications).toBeUndefined();
  });

  it('says what stopped the run first, once, as an error notification (a run that evaluated nothing has no other)', () => {
    const report = makePassingReport();
    report.summary.gate = 'error';
    report.stoppedBy = [{ cause: 'the run evaluated nothing (no dataset resources were found)', advice: 'name some in scope' }];
    const inv = render(report).runs[0].invocations![0];
    expect(inv.executionSuccessful).toBe(false);
    expect(inv.toolExecutionNotifications).toEqual([
      { level: 'error', message: { text: 'the run evaluated nothing (no dataset resources were found): name some in scope.' }, descriptor: { id: 'run-stopped' } },
    ]);
    expect(validate(render(report))).toEqual([]);
  });

  it('marks baseline state and sets the source root from cwd', () => {
    const report = makeReport({
      baseline: { file: 'b.json', resolved: [] },
      findings: [makeFinding({ baseline: 'new' }), makeFinding({ baseline: 'known' })],
    });
    const run = toSarif(report, { cwd: '/work/my repo' }).runs[0];
    expect(run.results!.map((r) => r.baselineState)).toEqual(['new', 'unchanged']);
    expect(run.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: 'file:///work/my%20repo/' } });
    expect(toSarif(makeReport()).runs[0].results![0].baselineState).toBeUndefined();
  });

  it('writes relative, / separated, encoded uris', () => {
    expect(fileUri('permissions\\queues\\a b.yaml')).toBe('permissions/queues/a%20b.yaml');
    expect(fileUri('./c:d/#x.yaml')).toBe('c%3Ad/%23x.yaml');
  });
});
