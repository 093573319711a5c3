// A report with a run history in the formats other than JSON and HTML: text and markdown say
// how many findings are new, open, reopened and fixed and name the fixed ones; markdown draws
// the trend (one per instance of a report of several, as HTML does); SARIF results carry the
// lifecycle; annotations name new and reopened findings.
import { describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { mergeReports, stampInstance } from '../../src/library/merge.js';
import { formatReport } from '../../src/report/index.js';
import { makeReport } from '../fixtures/report.js';

function withHistory(instance?: string): Report {
  const base = makeReport(instance ? { instance } : {});
  const findings = base.findings.map((f, i) =>
    f.status === 'error' ? f : { ...f, lifecycle: i === 0 ? ('new' as const) : ('open' as const), firstSeen: i === 0 ? base.startedAt : '2026-02-01T00:00:00.000Z' },
  );
  const point = (run: number, violations: number) => ({ run, startedAt: base.startedAt, gate: 'fail' as const, violations, bySeverity: base.summary.bySeverity, new: 0, reopened: 0, fixed: 0 });
  return {
    ...base,
    findings,
    fixed: [
      {
        policy: 'data-file-not-public',
        severity: 'critical',
        resource: { kind: 'dataFile', id: '77', name: null },
        fingerprint: 'fp-77',
        message: 'Data file 77 is public',
        firstSeen: '2026-02-01T00:00:00.000Z',
        fixedAt: base.startedAt,
      },
    ],
    history: { file: '.steward/history.sqlite', run: 3, new: 1, open: findings.length - 2, reopened: 0, fixed: 1, trend: [point(1, 5), point(2, 4), point(3, 4)] },
  };
}

const render = (format: 'text' | 'markdown' | 'sarif' | 'github') => formatReport(format, withHistory(), { color: false, width: 200 });

describe('lifecycle in the other formats', () => {
  it('text: the counts and each fixed finding', () => {
    const text = render('text');
    expect(text).toContain(`History .steward/history.sqlite (run 3): 1 new, ${withHistory().history!.open} open, 0 reopened, 1 fixed`);
    expect(text).toContain('fixed: data-file-not-public dataFile/77: Data file 77 is public (open since 2026-02-01)');
  });

  it('markdown: the counts, the fixed finding, the lifecycle per row and a Mermaid trend', () => {
    const md = render('markdown');
    expect(md).toContain('**History .steward/history.sqlite (run 3): 1 new,');
    expect(md).toContain('- fixed: data-file-not-public dataFile/77: Data file 77 is public (open since 2026-02-01)');
    expect(md).toContain(['```mermaid', 'xychart-beta', '  title "Violations per run"', '  x-axis ["#1", "#2", "#3"]', '  y-axis "violations" 0 --> 5', '  line [5, 4, 4]', '```'].join('\n'));
    expect(md.split('\n').filter((l) => l.startsWith('|') && l.includes('(new)'))).toHaveLength(1);
  });

  it('SARIF: lifecycle and firstSeen in each result’s properties', () => {
    const results = JSON.parse(render('sarif')).runs[0].results as { properties: { lifecycle?: string; firstSeen?: string } }[];
    expect(results.map((r) => r.properties.lifecycle).filter(Boolean).sort()).toEqual(
      withHistory().findings.filter((f) => f.lifecycle).map((f) => f.lifecycle).sort(),
    );
  });

  it('github: a new finding says so in its annotation title', () => {
    const lines = render('github').split('\n').filter((l) => l.includes('title='));
    // A comma in a property is escaped as %2C.
    expect(lines.filter((l) => /title=[^,]+ \((critical|high|medium|low|info)%2C new\)/.test(l))).toHaveLength(1);
  });
});

describe('the trend of a report of several instances', () => {
  // Each instance keeps its own history: the merged report's own trend is empty, each run's is drawn.
  const fleet = () => {
    const staging = withHistory('https://stg.example.com');
    staging.history!.trend = staging.history!.trend.map((t) => ({ ...t, violations: t.violations + 10 }));
    return mergeReports([stampInstance(withHistory('https://prod.example.com'), 'prod'), stampInstance(staging, 'staging')]);
  };

  it('markdown: a chart per instance, each titled with its name', () => {
    const md = formatReport('markdown', fleet(), { color: false, width: 200 });
    const titles = md.split('\n').filter((l) => l.startsWith('  title '));
    expect(titles).toEqual(['  title "Violations per run of prod"', '  title "Violations per run of staging"']);
    expect(md).toContain('  line [5, 4, 4]');
    expect(md).toContain('  line [15, 14, 14]');
  });

  it('HTML: a chart and its table per instance, under its name, with its history file', () => {
    const html = formatReport('html', fleet(), { color: false, width: 200 });
    const trend = html.slice(html.indexOf('<section aria-labelledby="trend-h">'), html.indexOf('</section>', html.indexOf('trend-h')));
    expect([...trend.matchAll(/<h3 id="trend-\d">([^<]+)<\/h3>/g)].map((m) => m[1])).toEqual(['prod', 'staging']);
    expect([...trend.matchAll(/last 3 runs of (\w+) \(history \.steward\/history\.sqlite\)/g)].map((m) => m[1])).toEqual(['prod', 'staging']);
    expect(trend.match(/<svg/g)).toHaveLength(2);
  });
});
