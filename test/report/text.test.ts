import { describe, expect, it } from 'vitest';
import { formatText, wrap } from '../../src/report/text.js';
import { makeFinding, makePassingReport, makePolicy, makeReport } from '../fixtures/report.js';

const ANSI = /\x1b\[[0-9;]*m/g;

function visible(line: string): number {
  return [...line.replace(ANSI, '')].length;
}

describe('text format', () => {
  const report = makeReport({ baseline: null });
  const plain = formatText(report, { color: false });
  const lines = plain.trimEnd().split('\n');

  it('groups findings by policy, most severe policy first', () => {
    const headers = lines.filter((l) => /^\S+ {2}(critical|high|medium|low|info) {2}/.test(l));
    expect(headers).toEqual([
      'data-file-not-public  critical  Data files are never public',
      'queue-no-admin-for-users  high  Queues grant ADMIN only through groups',
      'certified-dataset-has-owner-group  high  Certified datasets have an OWNER group',
      'schedule-not-misconfigured  medium  Report schedules are not misconfigured',
      'workflow-has-description  info  Workflows are described',
    ]);
    expect(plain).not.toContain('card-certified'); // passing policies are only counted
  });

  it('prints each finding with resource, path, message and location', () => {
    expect(lines).toContain('  ✖ dataFile/42 publicAccess: Data file 42 (prices.csv) is public');
    expect(lines).toContain('    (permissions/data-files/42.yaml:2:15)');
    expect(lines).toContain('  ✖ workflow/wf-7: Workflow "Nightly load" has no description');
    expect(plain).toContain(
      '  ○ queue/q-ops-triage permissions[1]: User Bo Chen (12) holds ADMIN on queue\n' +
        '    q-ops-triage (waived)  (permissions/queues/ops-triage.yaml:6:5)\n' +
        '    waived by governance@acme.example until 2027-03-31: break-glass account,\n' +
        '    reviewed quarterly',
    );
    expect(plain).toContain(
      '  ! dataset/ds-2: error: could not read access of dataset ds-2: GET\n',
    );
  });

  it('names expired and stale waivers', () => {
    expect(plain).toContain(
      'Expired waivers (no longer apply; their findings count again):\n  ! schedule-not-misconfigured sch-1009 expired 2025-01-31',
    );
    expect(plain).toContain(
      'Stale waivers (matched no finding):\n  ! data-file-not-public 99 until 2027-12-31 (web@acme.example)',
    );
  });

  it('ends with run statistics and the verdict', () => {
    expect(lines.slice(-3)).toEqual([
      '14 resources · 16 checks · 48 requests, 2 retried, 1 failed · 2.3s · fail-on low',
      '✖ error: 5 violations (1 critical, 1 high, 2 medium, 1 info), 1 waived, 1 error',
      '  in 6 policies',
    ]);
    const pass = formatText(makePassingReport(), { color: false }).trimEnd().split('\n');
    expect(pass.at(-1)).toBe('✔ pass: 0 violations, 0 waived, 0 errors in 6 policies');
    const fail = makeReport({ policies: [makePolicy()], findings: [makeFinding(), makeFinding()] });
    expect(formatText(fail, { color: false }).trimEnd().split('\n').at(-1)).toBe(
      '✖ fail: 2 violations (2 high), 0 waived, 0 errors in 1 policy',
    );
  });

  it('shows baseline state and resolved entries', () => {
    const withBaseline = makeReport({
      policies: [makePolicy()],
      baseline: { file: 'baseline.json', resolved: ['aa11', 'bb22'] },
      findings: [makeFinding({ baseline: 'new' }), makeFinding({ baseline: 'known' })],
    });
    const out = formatText(withBaseline, { color: false });
    expect(out).toContain('  ✖ [new] queue/q-finance-intake permissions[0]:');
    expect(out).toContain('  ✖ [known] queue/q-finance-intake permissions[0]:');
    expect(out).toContain(
      'Baseline baseline.json: 1 new, 1 known, 2 resolved\n  resolved: aa11\n  resolved: bb22\n',
    );
    // With a baseline the verdict counts the new violations; the known ones are named apart.
    expect(out.trimEnd().split('\n').slice(-2)).toEqual([
      '✖ fail: 1 new violation (1 high; 1 known in the baseline), 0 waived, 0 errors in',
      '  1 policy',
    ]);
  });

  it('uses ANSI colour only when asked', () => {
    expect(plain).not.toMatch(ANSI);
    const colored = formatText(report, { color: true });
    expect(colored).toMatch(/\x1b\[31m✖\x1b\[0m dataFile\/42/);
    expect(colored).toMatch(/\x1b\[1m/);
    expect(colored.replace(ANSI, '')).toBe(plain);
  });

  it('keeps every line within 80 columns, also for long messages and ids', () => {
    const long = makeReport({
      findings: [
        makeFinding({
          message:
            'User Ana Ruiz (7) holds ADMIN on a queue whose description goes on and on '.repeat(3),
        }),
        makeFinding({ resource: { kind: 'queue', id: `q-${'x'.repeat(120)}`, name: null } }),
      ],
    });
    for (const out of [
      plain,
      formatText(long, { color: false }),
      formatText(long, { color: true }),
    ]) {
      const over = out.split('\n').filter((l) => visible(l) > 80);
      expect(over).toEqual([]);
    }
    const narrow = formatText(long, { color: false, width: 50 });
    expect(narrow.split('\n').filter((l) => visible(l) > 50)).toEqual([]);
  });

  it('cuts a long header in its title, never in the id or the severity', () => {
    const id = 'queue-admin-grants-are-reviewed-by-the-governance-team-on-and-on';
    const report = makeReport({ policies: [makePolicy({ id })], findings: [makeFinding({ policy: id })] });
    const header = (width: number) =>
      formatText(report, { color: false, width }).split('\n').find((l) => l.startsWith(id));
    expect(header(80)).toBe(`${id}  high  Queues …`);
    // No room for a title at all: the id and severity stay whole, the title goes.
    expect(header(70)).toBe(`${id}  high`);
    expect(formatText(report, { color: true, width: 80 })).toContain('high\x1b[0m  Queues …');
  });

  it('names resolved baseline entries, and a baseline pass counts 0 new violations', () => {
    const known = [makeFinding({ baseline: 'known' }), makeFinding({ baseline: 'known', severity: 'critical' })];
    const report = makeReport({
      policies: [makePolicy()],
      findings: known,
      waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] },
      baseline: {
        file: 'baseline.json',
        resolved: ['aa11', 'bb22'],
        resolvedEntries: [
          {
            fingerprint: 'aa11',
            policy: 'queue-no-admin-for-users',
            resource: { kind: 'queue', id: 'q-old' },
            path: 'permissions[3]',
            message: 'User Bo (9) holds ADMIN on queue q-old',
          },
          { fingerprint: 'bb22' }, // a file written before entries were stored
        ],
      },
    });
    expect(report.summary.gate).toBe('pass');
    const lines = formatText(report, { color: false }).trimEnd().split('\n');
    expect(lines.slice(-8)).toEqual([
      'Baseline baseline.json: 0 new, 2 known, 2 resolved',
      '  resolved: queue-no-admin-for-users queue/q-old permissions[3]: User Bo (9)',
      '    holds ADMIN on queue q-old',
      '  resolved: bb22',
      '',
      '0 resources · 0 checks · 48 requests, 2 retried, 1 failed · 2.3s · fail-on low',
      '✔ pass: 0 new violations (2 known in the baseline), 0 waived, 0 errors in 1',
      '  policy',
    ]);
  });

  it('never cuts a location, even when it is wider than the terminal', () => {
    const file = 'permissions/queues/a-rather-long-team-name/finance-intake-escalations.yaml';
    const report = makeReport({ findings: [makeFinding({ location: { file, line: 12, column: 5 } })] });
    const lines = formatText(report, { color: false, width: 50 }).split('\n');
    expect(lines).toContain(`    (${file}:12:5)`);
  });

  it('wraps on word boundaries and splits words longer than a line', () => {
    expect(wrap('aaa bbb ccc', 8, '> ', '  ')).toEqual(['> aaa', '  bbb', '  ccc']);
    expect(wrap('abcdefghij', 6, '> ', '  ')).toEqual(['> abcd', '  efgh', '  ij']);
  });
});
