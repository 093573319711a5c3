// A policy that fails on every resource is one cause: text, github and markdown say it once
// with a count that matches summary.errors; JSON keeps every error finding.
import { describe, expect, it } from 'vitest';
import { selectAnnotations } from '../../src/report/github.js';
import { formatJson } from '../../src/report/json.js';
import { formatMarkdown } from '../../src/report/markdown.js';
import { formatText } from '../../src/report/text.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';

const LOCATION = { file: 'policies/schedules.yaml', line: 3, column: 5 };
const MESSAGE = 'could not evaluate: no such key: recipients';
const IDS = ['9001', '9002', '9003', '9004', '9005', '9006', '10019'];

function erroring() {
  const policy = makePolicy({
    id: 'schedules-have-recipients',
    severity: 'medium',
    resource: 'reportSchedule',
    status: 'error',
    error: MESSAGE,
    location: LOCATION,
    resourceIds: IDS,
  });
  const errors = IDS.map((id) =>
    makeFinding({
      policy: policy.id,
      severity: 'medium',
      status: 'error',
      resource: { kind: 'reportSchedule', id, name: null },
      path: null,
      message: MESSAGE,
      location: LOCATION,
    }),
  );
  // A second cause in the same policy: its own line.
  const other = makeFinding({
    policy: policy.id,
    severity: 'medium',
    status: 'error',
    resource: { kind: 'reportSchedule', id: '9100', name: null },
    path: null,
    message: 'could not read reportSchedule 9100: 500',
    location: LOCATION,
  });
  return makeReport({ policies: [policy], findings: [...errors, other], waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] } });
}

describe('evaluation errors, once per cause', () => {
  const report = erroring();

  it('text: one ! line per distinct message, naming how many resources; counts match the summary', () => {
    expect(report.summary.errors).toBe(8);
    const out = formatText(report, { color: false, width: 100 });
    const marks = out.split('\n').filter((l) => l.startsWith('  ! '));
    expect(marks).toEqual([
      '  ! 7 reportSchedule resources (9001, 9002, 9003, 9004, 9005 and 2 more): error: could not evaluate:',
      '  ! reportSchedule/9100: error: could not read reportSchedule 9100: 500',
    ]);
    expect(out).toContain('    no such key: recipients  (policies/schedules.yaml:3:5)\n');
    expect(out.match(/no such key/g)).toHaveLength(1);
    expect(out.trimEnd().split('\n').at(-1)).toBe('✖ error: 0 violations, 0 waived, 8 errors in 1 policy');
  });

  it('github: one error annotation per cause, "could not …" said once', () => {
    const { annotations, omitted } = selectAnnotations(report);
    expect(omitted).toEqual({ error: 0, warning: 0, notice: 0 });
    expect(annotations.map((a) => [a.level, a.message])).toEqual([
      ['error', `7 reportSchedule resources (9001, 9002, 9003, 9004, 9005 and 2 more): ${MESSAGE}`],
      ['error', 'reportSchedule/9100: could not read reportSchedule 9100: 500'],
    ]);
    expect(annotations[0].properties).toEqual({
      title: 'schedules-have-recipients (medium)',
      file: 'policies/schedules.yaml',
      startLine: 3,
      startColumn: 5,
    });
  });

  it('markdown: one line per cause above the table, no error rows', () => {
    const md = formatMarkdown(report, { color: false });
    expect(md).toContain(
      '**Could not evaluate**\n\n' +
        '- `schedules-have-recipients`: 7 reportSchedule resources (9001, 9002, 9003, 9004, 9005 and 2 more): could not evaluate: no such key: recipients (`policies/schedules.yaml:3:5`)\n' +
        '- `schedules-have-recipients`: reportSchedule/9100: could not read reportSchedule 9100: 500 (`policies/schedules.yaml:3:5`)\n',
    );
    expect(md).toContain('| errors | 8 |');
    expect(md).toContain('_No findings._');
    expect(md.match(/no such key/g)).toHaveLength(1);
  });

  it('json keeps every error finding', () => {
    const json = JSON.parse(formatJson(report, { color: false }));
    expect(json.findings.filter((f: { status: string }) => f.status === 'error')).toHaveLength(8);
  });

  it('a policy error no finding carries is still shown once', () => {
    const policy = makePolicy({ status: 'error', error: 'unknown resource kind nope' });
    const lone = makeReport({ policies: [policy], findings: [], waivers: { expired: [], stale: [], catchAll: [], active: [], expiring: [] } });
    expect(formatText(lone, { color: false }).split('\n').filter((l) => l.startsWith('  !'))).toEqual([
      '  ! error: unknown resource kind nope  (policies/queues.yaml:3:5)',
    ]);
    expect(selectAnnotations(lone).annotations.map((a) => a.message)).toEqual([
      'could not evaluate: unknown resource kind nope',
    ]);
  });
});
