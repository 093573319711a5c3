// The snapshot (DESIGN §12): every API answer a run needed, keyed by operation and arguments.
// It never holds a token or a header: only arguments and response bodies. Files are written as
// JSON Lines (version 2, snapshot-lines.ts); version 1, one JSON text, is still read.
import { OPERATION_IDS, OPERATIONS, type OperationId } from './operations.js';
import { canonicalJson } from '../core/canonical-json.js';
import { jsonProblem, parseJsonAt } from '../io/json-source.js';

/** The version `steward snapshot` writes (JSON Lines); 1 is the whole-text form of earlier releases. */
export const SNAPSHOT_VERSION = 2;

/** A read that failed, as recorded (ApiError's fields without its cause). */
export interface RecordedError {
  message: string;
  kind?: string;
  status?: number;
  method?: string;
  path?: string;
  apiMessage?: string;
}

/**
 * A page as read from a version-2 snapshot: its line (checked when the file was read), read and
 * parsed again each time the page is replayed: from the file itself when there is one, so a
 * replay holds no page at all; from its text when the snapshot came on standard input. The
 * objects of a page then live only while the run judges it: held as objects, 100,000 schedules
 * took 440 MB and a third of the run's CPU in collecting garbage that never died.
 */
export class PageLine {
  /** `text`: the line, or how to read it again. */
  constructor(private readonly text: string | (() => string)) {}

  /** The line as it was written (a page line of the format: written again as it is). */
  line(): string {
    return typeof this.text === 'string' ? this.text : this.text();
  }

  items(): unknown[] {
    return (JSON.parse(this.line()) as { page: unknown[] }).page;
  }
}

/** What every line of an answer starts with: its operation and arguments (the line's object left open). */
export const answerLineHead = (operation: OperationId, args: readonly unknown[]): string =>
  `{"operation":${JSON.stringify(operation)},"args":${JSON.stringify(args)}`;

/** The line of one page of an answer. */
export const pageLine = (head: string, items: readonly unknown[]): string => `${head},"page":${JSON.stringify(items)}}`;

/** A recorded page: its items, or (read from a file) its line. */
export type RecordedPage = unknown[] | PageLine;

export const pageItems = (page: RecordedPage): unknown[] => (page instanceof PageLine ? page.items() : page);

export interface RecordedAnswer {
  operation: OperationId;
  args: unknown[];
  /** Paged reads: every page read, in order. */
  pages?: RecordedPage[];
  /** Single reads: the body. */
  value?: unknown;
  /** The read failed (after `pages`, for a paged read that failed midway). */
  error?: RecordedError;
}

export interface SnapshotFile {
  version: typeof SNAPSHOT_VERSION;
  instance: string;
  recordedAt: string;
  answers: RecordedAnswer[];
}

export function answerKey(operation: string, args: readonly unknown[]): string {
  const trimmed = [...args];
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === undefined) trimmed.pop();
  return `${operation} ${canonicalJson(trimmed)}`;
}

/** A snapshot's read answers: paged ones hold `pages` (then maybe `error`), single ones `value` or `error`. */
export const PAGED_OPERATIONS = OPERATION_IDS.filter((id) => OPERATIONS[id].access === 'read' && OPERATIONS[id].paging !== 'none');
export const SINGLE_OPERATIONS = OPERATION_IDS.filter((id) => OPERATIONS[id].access === 'read' && OPERATIONS[id].paging === 'none');

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem of a recorded error, with the key it concerns (null: the error itself). */
function errorProblem(e: unknown): [string | null, string] | null {
  if (!isObject(e)) return [null, '"error" must be an object { message, status, ... }'];
  if (typeof e.message !== 'string') return ['message', '"error.message" must be a string'];
  if (e.status !== undefined && e.status !== null && typeof e.status !== 'number') {
    return ['status', '"error.status" must be a number or null'];
  }
  for (const key of ['kind', 'method', 'path', 'apiMessage']) {
    if (e[key] !== undefined && typeof e[key] !== 'string') return [key, `"error.${key}" must be a string`];
  }
  return null;
}

/** A problem: the path below the answer (or line) and what is wrong. */
export type SnapshotProblem = [(string | number)[], string];

/**
 * What every answer (version 1) and every line (version 2) must be: an object naming a read
 * operation, its arguments, and a well-formed error if any. The problem, or whether it is paged.
 */
export function readProblem(a: unknown, what: 'answer' | 'line'): SnapshotProblem | { paged: boolean } {
  if (!isObject(a)) return [[], `each ${what} must be an object { operation, args, ... }`];
  const paged = (PAGED_OPERATIONS as unknown[]).includes(a.operation);
  if (!paged && !(SINGLE_OPERATIONS as unknown[]).includes(a.operation)) {
    return [['operation'], `unknown read operation ${JSON.stringify(a.operation)} (one of ${[...PAGED_OPERATIONS, ...SINGLE_OPERATIONS].join(', ')})`];
  }
  if (!Array.isArray(a.args)) return [['args'], '"args" must be an array'];
  if (a.error !== undefined) {
    const problem = errorProblem(a.error);
    if (problem) return [problem[0] ? ['error', problem[0]] : ['error'], problem[1]];
  }
  return { paged };
}

/** The first problem of one answer; null when it is well formed. */
function answerProblem(answer: unknown): SnapshotProblem | null {
  const read = readProblem(answer, 'answer');
  if (Array.isArray(read)) return read;
  const a = answer as Record<string, unknown>;
  const op = a.operation;
  if (read.paged) {
    if (a.value !== undefined) return [['value'], `${op} is paged: its answer holds "pages", not "value"`];
    if (a.pages === undefined && a.error === undefined) return [[], `${op} answer must hold "pages" (or "error")`];
    if (a.pages !== undefined) {
      if (!Array.isArray(a.pages)) return [['pages'], '"pages" must be an array of pages (arrays)'];
      const bad = a.pages.findIndex((p) => !Array.isArray(p));
      if (bad >= 0) return [['pages', bad], 'each page must be an array'];
    }
    return null;
  }
  if (a.pages !== undefined) return [['pages'], `${op} is not paged: its answer holds "value" or "error", not "pages"`];
  const has = Number(a.value !== undefined) + Number(a.error !== undefined);
  if (has !== 1) return [[], `${op} answer must hold exactly one of "value" and "error"`];
  return null;
}

/**
 * Replay looks answers up by read: two different answers to one read would make the verdict
 * depend on which one wins. The check remembers each read's first answer and where it was; a
 * repeat that differs gives that place (null: a first answer, or an identical repeat). Answers
 * are compared only when a read repeats: the canonical text of every answer would cost more than
 * the rest of loading a large snapshot.
 */
export function repeatedAnswers<Place>(): (key: string, answer: RecordedAnswer, place: Place) => Place | null {
  const seen = new Map<string, { place: Place; answer: RecordedAnswer; body?: string }>();
  return (key, answer, place) => {
    const first = seen.get(key);
    if (!first) {
      seen.set(key, { place, answer });
      return null;
    }
    first.body ??= canonicalJson(withItems(first.answer));
    return first.body === canonicalJson(withItems(answer)) ? null : first.place;
  };
}

/** The answer with its pages' items (a page line's text may differ from another's by its spacing alone). */
const withItems = (answer: RecordedAnswer): RecordedAnswer => (answer.pages ? { ...answer, pages: answer.pages.map(pageItems) } : answer);

/** A version-1 snapshot (one JSON text { version: 1, answers: [...] }). */
export function parseSnapshotText(text: string, displayPath: string): SnapshotFile {
  const s = parseJsonAt(text, displayPath, 'snapshot');
  const at = (path: (string | number)[], message: string) => jsonProblem(text, displayPath, path, message);
  if (!isObject(s) || s.version !== 1) {
    throw at(['version'], `snapshot must have "version": ${SNAPSHOT_VERSION} on its first line (JSON Lines), or be one JSON text with "version": 1`);
  }
  if (!Array.isArray(s.answers)) throw at(['answers'], 'snapshot "answers" must be an array of { operation, args, ... }');
  const repeated = repeatedAnswers<number>();
  for (const [i, a] of s.answers.entries()) {
    const problem = answerProblem(a);
    if (problem) throw at(['answers', i, ...problem[0]], `snapshot answer ${i}: ${problem[1]}`);
    const answer = a as RecordedAnswer;
    const key = answerKey(answer.operation, answer.args);
    const first = repeated(key, answer, i);
    if (first !== null) throw at(['answers', i], `snapshot answer ${i}: a second, different answer to ${key} (answer ${first} answers it already)`);
  }
  return {
    version: SNAPSHOT_VERSION,
    instance: String(s.instance ?? ''),
    recordedAt: String(s.recordedAt ?? ''),
    answers: s.answers as RecordedAnswer[],
  };
}
