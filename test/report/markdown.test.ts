import { describe, expect, it } from 'vitest';
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { codeSpan, escapeCell, formatMarkdown, renderMarkdown } from '../../src/report/markdown.js';
import { makeFinding, makePassingReport, makePolicy, makeReport } from '../fixtures/report.js';

const HEADER = '| Policy | Severity | Resource | Message | Owner | Location | Status |';

/** Data rows of the findings tables, one per group (headers and separators excluded), in order. */
function findingRows(md: string): string[] {
  const lines = md.split('\n');
  const rows: string[] = [];
  lines.forEach((line, i) => {
    if (line !== HEADER) return;
    for (const row of lines.slice(i + 2)) {
      if (!row.startsWith('| ')) break;
      rows.push(row);
    }
  });
  return rows;
}

/** The `<summary>` lines of the grouped findings. */
const summaries = (md: string) => md.split('\n').filter((l) => l.startsWith('<summary>'));

/** Cells of a table row, split on unescaped pipes. */
function cells(row: string): string[] {
  return row
    .slice(2, -2)
    .split(/(?<!\\)\| /)
    .map((c) => c.trim().replace(/ \|$/, ''));
}

function manyFindings(n: number) {
  return Array.from({ length: n }, (_, i) =>
    makeFinding({
      resource: { kind: 'queue', id: `q-${i}`, name: null },
      message: `User ${i} holds ADMIN `.repeat(4),
    }),
  );
}

describe('markdown format', () => {
  it('starts with the verdict and a counts table, then one row per finding', () => {
    const md = formatMarkdown(makeReport(), { color: false });
    expect(md.split('\n')[0]).toBe(
      '### ⚠️ steward: error: 5 violations (1 critical, 1 high, 2 medium, 1 info), 1 waived, 1 error in 6 policies',
    );
    expect(md).toContain(
      '| critical | 1 |\n| high | 1 |\n| medium | 2 |\n| low | 0 |\n| info | 1 |\n| waived | 1 |\n| errors | 1 |',
    );
    const rows = findingRows(md);
    expect(rows).toHaveLength(6);
    // One collapsible table per policy, most severe policy first; in each, violations first, then
    // the waived ones. The error is listed once above the tables, with the policies that could not be evaluated.
    expect(summaries(md)).toEqual([
      '<summary><code>data-file-not-public</code> · critical · Data files are never public · 1 finding</summary>',
      '<summary><code>queue-no-admin-for-users</code> · high · Queues grant ADMIN only through groups · 2 findings</summary>',
      '<summary><code>schedule-not-misconfigured</code> · medium · Report schedules are not misconfigured · 2 findings</summary>',
      '<summary><code>workflow-has-description</code> · info · Workflows are described · 1 finding</summary>',
    ]);
    expect(md).toContain('<details>\n<summary><code>data-file-not-public</code>');
    expect(rows.map((r) => cells(r)[0])).toEqual([
      'data-file-not-public',
      'queue-no-admin-for-users',
      'queue-no-admin-for-users',
      'schedule-not-misconfigured',
      'schedule-not-misconfigured',
      'workflow-has-description',
    ]);
    expect(cells(rows[0])).toEqual([
      'data-file-not-public',
      'critical',
      '`dataFile/42 publicAccess`',
      'Data file 42 (prices.csv) is public',
      '',
      '`permissions/data-files/42.yaml:2:15`',
      'violation',
    ]);
    expect(cells(rows[2])[6]).toBe(
      'waived: break-glass account, reviewed quarterly (governance\\@acme.example, until 2027-03-31)',
    );
    expect(md).toContain(
      '**Expired waivers (no longer apply)**\n\n- schedule-not-misconfigured sch-1009 expired 2025-01-31',
    );
    expect(md).toContain('**Stale waivers (matched no finding)**');
  });

  it('escapes pipes, newlines, HTML and mentions inside cells', () => {
    const report = makeReport({
      policies: [makePolicy()],
      findings: [makeFinding({ message: 'a | b\nc <script>x</script> @team *bold*' })],
    });
    const rows = findingRows(formatMarkdown(report, { color: false }));
    expect(rows).toHaveLength(1);
    expect(cells(rows[0])).toHaveLength(7);
    expect(cells(rows[0])[3]).toBe(
      'a \\| b<br>c &lt;script&gt;x&lt;/script&gt; @\u200Bteam \\*bold\\*',
    );
    expect(escapeCell('x|y')).toBe('x\\|y');
  });

  it('locations are code spans of repository paths, copyable as they are: no zero-width character in `@scope` paths, a pipe escaped for the table only; a finding of a policy outside the repository has none', () => {
    const scoped = 'vendor/node-policies/@acme/steward-policies/queues.yaml';
    const report = makeReport({
      policies: [makePolicy({ location: { file: scoped, line: 3, column: 5 } }), makePolicy({ id: 'pack-policy', location: { file: '../../_actions/x/steward/policies/a.yaml', line: 2, column: 5 } })],
      findings: [
        makeFinding({ location: null }),
        makeFinding({ location: { file: 'permissions/a|b.yaml', line: 4, column: 1 } }),
        makeFinding({ policy: 'pack-policy', location: null }),
      ],
    });
    const md = formatMarkdown(report, { color: false });
    expect(md).not.toContain('\u200B');
    const locations = findingRows(md).map((r) => cells(r)[5]);
    expect(locations).toEqual([`\`${scoped}:3:5\``, '`permissions/a\\|b.yaml:4:1`', '']);
    // As GitHub renders it: the path inside <code>, exactly, and no mention link.
    const html = micromark(md, { extensions: [gfm()], htmlExtensions: [gfmHtml()] });
    expect(html).toContain(`<code>${scoped}:3:5</code>`);
    expect(html).toContain('<code>permissions/a|b.yaml:4:1</code>');
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
  });

  it('says so when there are no findings', () => {
    const md = formatMarkdown(makePassingReport(), { color: false });
    expect(md.split('\n')[0]).toBe(
      '### ✅ steward: pass: 0 violations, 0 waived, 0 errors in 6 policies',
    );
    expect(findingRows(md)).toEqual([]);
    expect(md).toContain('_No findings._');
  });

  it('drops rows past maxBytes and says how many are shown', () => {
    const report = makeReport({ policies: [makePolicy()], findings: manyFindings(200) });
    const full = renderMarkdown(report);
    expect(findingRows(full)).toHaveLength(200);
    expect(full).not.toContain('_Showing');
    const max = 8_000;
    const cut = renderMarkdown(report, max);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(max);
    const shown = findingRows(cut).length;
    expect(shown).toBeGreaterThan(10);
    expect(shown).toBeLessThan(200);
    expect(cut).toContain(`_Showing ${shown} of 200 findings to stay within the size limit`);
    expect(cut).toContain('**Expired waivers (no longer apply)**');
    // The budget is used: one more row would not have fit.
    expect(
      Buffer.byteLength(cut) + Buffer.byteLength(findingRows(full)[shown]) + 1,
    ).toBeGreaterThan(max);
    expect(renderMarkdown(report, Buffer.byteLength(full))).toBe(full);
  });
});
