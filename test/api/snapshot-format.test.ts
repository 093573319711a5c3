// What a snapshot's answers (version 1, one JSON text) and lines (version 2, JSON Lines) must be,
// each rule on its own: the message it gives and the place it points at. A snapshot that breaks
// one is bad input before any policy runs; one that keeps them all loads as written.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { parseSnapshot } from '../../src/api/snapshot.js';
import { answerKey, PAGED_OPERATIONS, SINGLE_OPERATIONS } from '../../src/api/snapshot-format.js';

/** The first problem of `text`: `line:column message`, or 'loaded'. */
function problemOf(text: string): string {
  try {
    parseSnapshot(text, 'snap');
    return 'loaded';
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    const [p] = e.problems;
    return `${p!.line}:${p!.column} ${p!.message}`;
  }
}

/** A version-1 snapshot of one answer, on one line. */
const v1 = (answer: unknown) => JSON.stringify({ version: 1, instance: 'https://x.example', recordedAt: '2026-11-26T00:00:00.000Z', answers: [answer] });
/** A version-2 snapshot: its header, then each line given. */
const v2 = (...lines: unknown[]) => [{ version: 2, instance: 'https://x.example', recordedAt: '2026-11-26T00:00:00.000Z' }, ...lines].map((l) => JSON.stringify(l)).join('\n');
/** The column of `needle` in `text`'s line `line` (1-based). */
const col = (text: string, needle: string, line = 1) => text.split('\n')[line - 1]!.indexOf(needle) + 1;

const STATS = { operation: 'getCalculatedFieldStatistics', args: [] };
const MISCONFIGURED = { operation: 'getMisconfiguredReports', args: [] };

describe('version 1: each answer', () => {
  it.each([
    ['not an object', 5, '5', 'each answer must be an object { operation, args, ... }'],
    ['a list', [STATS], '[{', 'each answer must be an object { operation, args, ... }'],
    ['arguments not a list', { ...STATS, args: 'x', value: {} }, '"x"', '"args" must be an array'],
    ['an error without a message', { ...STATS, error: { status: 500 } }, '{"status"', '"error.message" must be a string'],
    ['an error whose status is text', { ...STATS, error: { message: 'm', status: '500' } }, '"500"', '"error.status" must be a number or null'],
    ['an error whose kind is not text', { ...STATS, error: { message: 'm', kind: 1 } }, '1}', '"error.kind" must be a string'],
    ['an error whose method is not text', { ...STATS, error: { message: 'm', method: [] } }, '[]}', '"error.method" must be a string'],
    ['an error whose path is not text', { ...STATS, error: { message: 'm', path: {} } }, '{}}', '"error.path" must be a string'],
    ["an error whose platform's message is not text", { ...STATS, error: { message: 'm', apiMessage: false } }, 'false}', '"error.apiMessage" must be a string'],
    ['a listing answered with a value', { ...MISCONFIGURED, value: [] }, '[]}', 'getMisconfiguredReports is paged: its answer holds "pages", not "value"'],
    ['a listing with neither pages nor error', MISCONFIGURED, '{"operation"', 'getMisconfiguredReports answer must hold "pages" (or "error")'],
    ['a listing whose second page is not a list', { ...MISCONFIGURED, pages: [[{ id: 1 }], 5] }, '5]', 'each page must be an array'],
    ['a single read with pages', { ...STATS, pages: [[]] }, '[[]]', 'getCalculatedFieldStatistics is not paged: its answer holds "value" or "error", not "pages"'],
    ['a single read with a value and an error', { ...STATS, value: {}, error: { message: 'm' } }, '{"operation"', 'getCalculatedFieldStatistics answer must hold exactly one of "value" and "error"'],
    ['a single read with neither', STATS, '{"operation"', 'getCalculatedFieldStatistics answer must hold exactly one of "value" and "error"'],
  ])('%s: bad input at it', (_, answer, at, message) => {
    const text = v1(answer);
    expect(problemOf(text)).toBe(`1:${text.indexOf(at, text.indexOf('"answers"')) + 1} snapshot answer 0: ${message}`);
  });

  it('an unknown operation is named with every read one, at its name', () => {
    const text = v1({ operation: 'deleteEverything', args: [], value: {} });
    expect(problemOf(text)).toBe(`1:${col(text, '"deleteEverything"')} snapshot answer 0: unknown read operation "deleteEverything" (one of ${[...PAGED_OPERATIONS, ...SINGLE_OPERATIONS].join(', ')})`);
    expect(PAGED_OPERATIONS).toContain('listReportSchedules');
    expect(SINGLE_OPERATIONS).toEqual(expect.arrayContaining(['getCalculatedFieldStatistics', 'getDatasetPermissions']));
    // A write is no read: never in a snapshot.
    for (const write of ['updateQueuePermissions', 'createDatasetTags', 'duplicateDataFile']) {
      expect([...PAGED_OPERATIONS, ...SINGLE_OPERATIONS]).not.toContain(write);
    }
  });

  it('a file of another version or without answers is refused at the key; a well-formed one loads, with no instance or time as empty', () => {
    const other = JSON.stringify({ version: 3, answers: [] });
    expect(problemOf(other)).toBe(`1:${col(other, '3')} snapshot must have "version": 2 on its first line (JSON Lines), or be one JSON text with "version": 1`);
    const noAnswers = JSON.stringify({ version: 1, answers: {} });
    expect(problemOf(noAnswers)).toBe(`1:${col(noAnswers, '{}')} snapshot "answers" must be an array of { operation, args, ... }`);
    const bare = parseSnapshot(JSON.stringify({ version: 1, answers: [{ ...MISCONFIGURED, error: { message: 'm', status: null } }] }), 'snap');
    expect(bare).toEqual({ version: 2, instance: '', recordedAt: '', answers: [{ ...MISCONFIGURED, error: { message: 'm', status: null } }] });
  });
});

describe('answerKey', () => {
  it('a read is keyed by its operation and arguments, trailing absent ones left out (an optional argument not given)', () => {
    expect(answerKey('getDatasetPermissions', ['ds-1', undefined, undefined])).toBe(answerKey('getDatasetPermissions', ['ds-1']));
    expect(answerKey('getDatasetPermissions', ['ds-1', undefined, 2])).not.toBe(answerKey('getDatasetPermissions', ['ds-1', 2]));
    expect(answerKey('getDatasetPermissions', ['ds-1'])).not.toBe(answerKey('getDatasetPermissions', ['ds-2']));
  });
});

describe('version 2: each line', () => {
  it.each([
    ['a single read with a page', { ...STATS, page: [] }, '[]}', 'getCalculatedFieldStatistics is not paged: its line holds "value" or "error"'],
    ['a single read with pages', { ...STATS, pages: 1 }, '1}', 'getCalculatedFieldStatistics is not paged: its line holds "value" or "error"'],
    ['a single read with neither', STATS, '{', 'getCalculatedFieldStatistics line must hold exactly one of "value" and "error"'],
    ['a single read with both', { ...STATS, value: {}, error: { message: 'm' } }, '{', 'getCalculatedFieldStatistics line must hold exactly one of "value" and "error"'],
    ['a listing answered with a value', { ...MISCONFIGURED, value: [] }, '[]}', 'getMisconfiguredReports is paged: its lines hold "page", then "pages"'],
    ['a page that is not a list', { ...MISCONFIGURED, page: {} }, '{}', '"page" must be an array'],
    ['a page line with a count', { ...MISCONFIGURED, page: [], pages: 1 }, '[],"pages"', 'a "page" line holds one page: "pages" and "error" go on the closing line'],
    ['a page line with an error', { ...MISCONFIGURED, page: [], error: { message: 'm' } }, '[],"error"', 'a "page" line holds one page: "pages" and "error" go on the closing line'],
    ['a closing line counting less than none', { ...MISCONFIGURED, pages: -1 }, '-1', 'getMisconfiguredReports line must hold "page" (a page) or "pages" (how many page lines precede it)'],
    ['a closing line counting half a page', { ...MISCONFIGURED, pages: 0.5 }, '0.5', 'getMisconfiguredReports line must hold "page" (a page) or "pages" (how many page lines precede it)'],
  ])('%s: bad input at it', (_, line, at, message) => {
    const text = v2(line);
    expect(problemOf(text)).toBe(`2:${col(text, at, 2)} snapshot line 2: ${message}`);
  });

  it('a listing of no page, one with its error, blank lines between: loaded as written; no instance or time is empty', () => {
    const text = `${v2({ ...MISCONFIGURED, pages: 0 }, { operation: 'listReportSchedules', args: [], page: [{ id: 1 }] }, { operation: 'listReportSchedules', args: [], pages: 1, error: { message: 'm', status: 503 } })}\n   \n\n`;
    const snap = parseSnapshot(text, 'snap');
    expect(snap.answers.map((a) => [a.operation, a.pages?.length, 'error' in a ? a.error : 'none'])).toEqual([
      ['getMisconfiguredReports', 0, 'none'],
      ['listReportSchedules', 1, { message: 'm', status: 503 }],
    ]);
    expect(parseSnapshot(`${JSON.stringify({ version: 2 })}\n`, 'snap')).toEqual({ version: 2, instance: '', recordedAt: '', answers: [] });
  });
});
