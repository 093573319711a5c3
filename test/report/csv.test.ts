import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, formatCsv, inertCell } from '../../src/report/csv.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';

describe('csv format', () => {
  it('quotes commas, quotes and line breaks as RFC 4180 says, and reads back to the same cells', () => {
    const message = 'User "Ana", admin\non q-1';
    const report = makeReport({ policies: [makePolicy()], findings: [makeFinding({ message })] });
    const csv = formatCsv(report, { color: false });
    expect(csv).toContain('"User ""Ana"", admin\non q-1"');
    expect(csv.endsWith('\r\n')).toBe(true);
    const [header, row] = parse(csv, { record_delimiter: '\r\n', relax_column_count: false }) as string[][];
    expect(header).toEqual(CSV_COLUMNS.map(([h]) => h));
    expect(row[header.indexOf('message')]).toBe(message);
  });

  it('makes a cell a spreadsheet would run inert (= + - @, tab, CR first), and leaves others alone', () => {
    const report = makeReport({ policies: [makePolicy()], findings: [makeFinding({ message: '=HYPERLINK("http://x","y")' })] });
    const [header, row] = parse(formatCsv(report, { color: false }), { record_delimiter: '\r\n' }) as string[][];
    expect(row[header.indexOf('message')]).toBe(`'=HYPERLINK("http://x","y")`);
    expect(['+1', '-1', '@x', '\tx', '\rx', 'ok', '1-2'].map(inertCell)).toEqual(["'+1", "'-1", "'@x", "'\tx", "'\rx", 'ok', '1-2']);
  });
});
