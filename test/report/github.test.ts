import { describe, expect, it } from 'vitest';
import {
  escapeData,
  escapeProperty,
  formatGithub,
  selectAnnotations,
} from '../../src/report/github.js';
import type { Finding, Report, Severity } from '../../src/core/model.js';
import { mergeReports, stampInstance } from '../../src/library/merge.js';
import { makeFinding, makePassingReport, makePolicy, makeReport } from '../fixtures/report.js';

function findings(n: number, severity: Severity, overrides: Partial<Finding> = {}): Finding[] {
  return Array.from({ length: n }, (_, i) =>
    makeFinding({
      severity,
      resource: { kind: 'queue', id: `${severity}-${i}`, name: null },
      ...overrides,
    }),
  );
}

function lines(out: string): string[] {
  return out.trimEnd().split('\n');
}

describe('github format', () => {
  it('annotates each finding at its file and line, level from severity', () => {
    const out = lines(formatGithub(makeReport(), { color: false }));
    expect(out).toEqual([
      '::error file=policies/datasets.yaml,line=3,col=5,title=certified-dataset-has-owner-group (high)::dataset/ds-2: could not read access of dataset ds-2: GET /api/data/v1/datasets/ds-2/access answered 500',
      '::error file=permissions/data-files/42.yaml,line=2,col=15,title=data-file-not-public (critical)::dataFile/42 publicAccess: Data file 42 (prices.csv) is public',
      '::error file=permissions/queues/finance-intake.yaml,line=3,col=5,title=queue-no-admin-for-users (high)::queue/q-finance-intake permissions[0]: User Ana Ruiz (7) holds ADMIN on queue q-finance-intake',
      '::warning file=policies/schedules.yaml,line=3,col=5,title=schedule-not-misconfigured (medium)::reportSchedule/sch-1002: Schedule "Weekly revenue" is misconfigured: recipient list is empty',
      '::warning file=policies/schedules.yaml,line=3,col=5,title=schedule-not-misconfigured (medium)::reportSchedule/sch-1009: Schedule "Daily ops" is misconfigured: invalid time zone "Mars/Olympus"',
      '::notice file=policies/workflows.yaml,line=3,col=5,title=workflow-has-description (info)::workflow/wf-7: Workflow "Nightly load" has no description',
    ]);
    expect(formatGithub(makePassingReport(), { color: false })).toBe('');
  });

  it('caps each level at 10, most severe first, with one closing notice', () => {
    const report = makeReport({
      policies: [makePolicy()],
      findings: [...findings(8, 'high'), ...findings(5, 'critical'), ...findings(2, 'medium')],
    });
    const out = lines(formatGithub(report, { color: false }));
    const errors = out.filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(10);
    expect(errors.slice(0, 5).every((l) => l.includes('(critical)'))).toBe(true);
    expect(errors.slice(5).map((l) => l.match(/::queue\/([\w-]+) /)?.[1])).toEqual([
      'high-0',
      'high-1',
      'high-2',
      'high-3',
      'high-4',
    ]);
    expect(out.filter((l) => l.startsWith('::warning '))).toHaveLength(2);
    expect(out.filter((l) => l.startsWith('::notice'))).toEqual([
      '::notice::3 more errors not shown; see the job summary or report',
    ]);
    expect(out.at(-1)).toBe('::notice::3 more errors not shown; see the job summary or report');
  });

  it('keeps notices plus closing notices within the notice cap', () => {
    const report = makeReport({
      policies: [makePolicy()],
      findings: [...findings(11, 'high'), ...findings(12, 'medium'), ...findings(15, 'low')],
    });
    const { annotations, omitted } = selectAnnotations(report);
    const count = (level: string) => annotations.filter((a) => a.level === level).length;
    expect([count('error'), count('warning'), count('notice')]).toEqual([10, 10, 10]);
    // 3 closing notices leave 7 slots for the 15 low findings.
    expect(omitted).toEqual({ error: 1, warning: 2, notice: 8 });
    expect(annotations.slice(-3).map((a) => a.message)).toEqual([
      '1 more error not shown; see the job summary or report',
      '2 more warnings not shown; see the job summary or report',
      '8 more notices not shown; see the job summary or report',
    ]);
    expect(selectAnnotations(report, 3).omitted).toEqual({ error: 8, warning: 9, notice: 15 });
  });

  it('a report of several instances names each finding\'s instance in its title (both may sit on one manifest line)', () => {
    const one = (name: string, url: string) => stampInstance(makeReport({ instance: url, findings: [makeFinding({ severity: 'high', resource: { kind: 'queue', id: 'q-finance', name: null } })] }), name);
    const titles = (r: Report) => selectAnnotations(r).annotations.filter((a) => a.message.startsWith('queue/q-finance')).map((a) => a.properties.title);
    expect(titles(mergeReports([one('prod', 'https://prod.example.com'), one('staging', 'https://stg.example.com')]))).toEqual([
      'queue-no-admin-for-users (high) on prod',
      'queue-no-admin-for-users (high) on staging',
    ]);
    // One instance: the title as ever.
    expect(titles(one('prod', 'https://prod.example.com'))).toEqual(['queue-no-admin-for-users (high)']);
  });

  it('skips waived and known-baseline findings', () => {
    const report = makeReport({
      policies: [makePolicy()],
      baseline: { file: 'b.json', resolved: [] },
      findings: [
        ...findings(1, 'high', { baseline: 'new' }),
        ...findings(1, 'high', { baseline: 'known' }),
        ...findings(1, 'high', { status: 'waived' }),
      ],
    });
    expect(selectAnnotations(report).annotations.map((a) => a.message)).toEqual([
      'queue/high-0 permissions[0]: User Ana Ruiz (7) holds ADMIN on queue q-finance-intake',
    ]);
  });

  it('escapes data and properties per the workflow command rules', () => {
    expect(escapeData('50% done\r\nnext: a, b')).toBe('50%25 done%0D%0Anext: a, b');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    const report = makeReport({
      policies: [makePolicy()],
      findings: [
        makeFinding({
          policy: 'p,1:x',
          message: 'line one\nline two 100%',
          location: { file: 'dir,a/b:c.yaml', line: 4, column: 2 },
        }),
      ],
    });
    expect(formatGithub(report, { color: false })).toBe(
      '::error file=dir%2Ca/b%3Ac.yaml,line=4,col=2,title=p%2C1%3Ax (high)::queue/q-finance-intake permissions[0]: line one%0Aline two 100%25\n',
    );
  });
});
