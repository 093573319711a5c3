// The snapshot file as JSON Lines (version 2): a header line, then one line per single answer
// and, for a paged read, one line per page followed by a closing line that counts them. It is
// written and read a line at a time, so a snapshot is never one string: 1,000,000 schedules
// (~550 MB of JSON) are past V8's longest string, which version 1 (one JSON text) was bound by.
//
//   {"version":2,"instance":"https://…","recordedAt":"2026-…"}
//   {"operation":"getMisconfiguredReports","args":[],"value":[…]}
//   {"operation":"listReportSchedules","args":[],"page":[…]}      one line per page, in order
//   {"operation":"listReportSchedules","args":[],"pages":1}       closes it (with "error" if it failed)
import { closeSync, createReadStream, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { InputError, type InputProblem } from '../core/problem.js';
import { SecretSet } from '../core/redact.js';
import { decodeUtf8, fileError, STDIN } from '../io/input-file.js';
import { jsonProblem, parseJsonAt } from '../io/json-source.js';
import { writeWholeSync } from '../io/write-whole.js';
import { OPERATIONS, type OperationId } from './operations.js';
import {
  answerKey,
  answerLineHead,
  isObject,
  PageLine,
  pageLine,
  parseSnapshotText,
  type RecordedAnswer,
  type RecordedPage,
  readProblem,
  repeatedAnswers,
  SNAPSHOT_VERSION,
  type SnapshotFile,
  type SnapshotProblem,
} from './snapshot-format.js';

/** The lines of a snapshot, each without its newline (the header first). */
export function* snapshotLines(snapshot: SnapshotFile): Generator<string> {
  yield JSON.stringify({ version: SNAPSHOT_VERSION, instance: snapshot.instance, recordedAt: snapshot.recordedAt });
  for (const a of snapshot.answers) {
    const head = answerLineHead(a.operation, a.args);
    const error = a.error ? `,"error":${JSON.stringify(a.error)}` : '';
    if (OPERATIONS[a.operation].paging === 'none') {
      yield a.error ? `${head}${error}}` : `${head},"value":${JSON.stringify(a.value ?? null)}}`;
      continue;
    }
    const pages = a.pages ?? [];
    // A page kept as its line (spooled while recording, or read from a file) is written as it is.
    for (const page of pages) yield page instanceof PageLine ? page.line() : pageLine(head, page);
    yield `${head},"pages":${pages.length}${error}}`;
  }
}

/**
 * Writes the snapshot a line at a time, whole or not at all (io/write-whole.ts); a secret an
 * answer echoed is redacted in every form (`secrets`).
 */
export async function writeSnapshot(file: string, snapshot: SnapshotFile, secrets: SecretSet = new SecretSet()): Promise<void> {
  // Lines are gathered into chunks of ~1 MB: a write per line cost more than the JSON.
  function* chunks() {
    let chunk = '';
    for (const line of snapshotLines(snapshot)) {
      chunk += `${secrets.redact(line)}\n`;
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: where the chunks end, not what they hold
      if (chunk.length >= 1 << 20) {
        yield chunk;
        chunk = '';
      }
    }
    // Stryker disable next-line ConditionalExpression: an empty last chunk writes nothing
    if (chunk) yield chunk;
  }
  writeWholeSync(file, chunks());
}

/** A problem of one line (its line number added to the position within it). */
function onLine(err: unknown, line: number): unknown {
  if (!(err instanceof InputError)) return err;
  return new InputError(err.problems.map((p): InputProblem => ({ ...p, line: p.line + line - 1 })));
}

/** The first problem of one answer line; null when it is well formed. */
function lineProblem(line: unknown): SnapshotProblem | null {
  const read = readProblem(line, 'line');
  if (Array.isArray(read)) return read;
  const a = line as Record<string, unknown>;
  const op = a.operation;
  if (!read.paged) {
    if (a.page !== undefined || a.pages !== undefined) return [[a.page !== undefined ? 'page' : 'pages'], `${op} is not paged: its line holds "value" or "error"`];
    const has = Number(a.value !== undefined) + Number(a.error !== undefined);
    // Stryker disable next-line ArrayDeclaration: a path the line does not hold is placed at its start, as the empty one
    return has === 1 ? null : [[], `${op} line must hold exactly one of "value" and "error"`];
  }
  if (a.value !== undefined) return [['value'], `${op} is paged: its lines hold "page", then "pages"`];
  if (a.page !== undefined) {
    if (!Array.isArray(a.page)) return [['page'], '"page" must be an array'];
    if (a.pages !== undefined || a.error !== undefined) return [['page'], 'a "page" line holds one page: "pages" and "error" go on the closing line'];
    return null;
  }
  if (!Number.isSafeInteger(a.pages) || (a.pages as number) < 0) return [['pages'], `${op} line must hold "page" (a page) or "pages" (how many page lines precede it)`];
  return null;
}

interface OpenAnswer {
  key: string;
  line: number;
  answer: RecordedAnswer & { pages: RecordedPage[] };
}

/** Reads version-2 lines one at a time into a SnapshotFile; every problem is bad input at its line. */
class SnapshotLineReader {
  readonly #file: string;
  readonly #answers: RecordedAnswer[] = [];
  readonly #repeated = repeatedAnswers<number>();
  #header: { instance: string; recordedAt: string } | null = null;
  #open: OpenAnswer | null = null;
  #line = 0;

  constructor(file: string) {
    this.#file = file;
  }

  #problem(line: number, message: string): InputError {
    return new InputError([{ file: this.#file, line, column: 1, message }]);
  }

  /** The next line's text (without its newline); `again` reads it again from the file, when there is one. */
  accept(text: string, again?: () => string): void {
    const line = ++this.#line;
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = parseJsonAt(text, this.#file, 'snapshot');
    } catch (err) {
      throw onLine(err, line);
    }
    if (!this.#header) {
      if (!isObject(value) || value.version !== SNAPSHOT_VERSION) {
        throw onLine(jsonProblem(text, this.#file, ['version'], `snapshot must have "version": ${SNAPSHOT_VERSION} on its first line (this steward reads version 2, JSON Lines, and 1)`), line);
      }
      this.#header = { instance: String(value.instance ?? ''), recordedAt: String(value.recordedAt ?? '') };
      return;
    }
    const problem = lineProblem(value);
    if (problem) throw onLine(jsonProblem(text, this.#file, problem[0], `snapshot line ${line}: ${problem[1]}`), line);
    const a = value as Record<string, unknown> & { operation: OperationId; args: unknown[] };
    const key = answerKey(a.operation, a.args);
    const open = this.#open;
    if (open && open.key !== key) {
      throw this.#problem(line, `snapshot line ${line}: the answer to ${open.key} (from line ${open.line}) has no closing "pages" line before this one`);
    }
    if (OPERATIONS[a.operation].paging === 'none') {
      this.#close(line, key, a as RecordedAnswer);
      return;
    }
    const current = open ?? { key, line, answer: { operation: a.operation, args: a.args, pages: [] } };
    if (Array.isArray(a.page)) {
      // Checked now, read and parsed again when replayed: not even the line is kept when the file can give it again.
      current.answer.pages.push(new PageLine(again ?? text));
      this.#open = current;
      return;
    }
    if (a.pages !== current.answer.pages.length) {
      throw this.#problem(line, `snapshot line ${line}: "pages": ${a.pages}, but ${current.answer.pages.length} page line(s) of ${key} precede it`);
    }
    if (a.error !== undefined) current.answer.error = a.error as RecordedAnswer['error'];
    this.#open = null;
    this.#close(current.line, key, current.answer);
  }

  #close(line: number, key: string, answer: RecordedAnswer): void {
    const first = this.#repeated(key, answer, line);
    if (first !== null) throw this.#problem(line, `snapshot line ${line}: a second, different answer to ${key} (line ${first} answers it already)`);
    this.#answers.push(answer);
  }

  /** The snapshot, once every line is read; a file cut short is bad input at its end. */
  finish(): SnapshotFile {
    // Stryker disable next-line StringLiteral: unreachable from a file (lines are read only after a header line), kept for callers of the reader
    if (!this.#header) throw fileError(this.#file, 'snapshot is empty');
    if (this.#open) {
      const { key, line } = this.#open;
      throw this.#problem(this.#line, `snapshot ends inside the answer to ${key} (from line ${line}): its closing "pages" line is missing (a recording cut short?)`);
    }
    return { version: SNAPSHOT_VERSION, ...this.#header, answers: this.#answers };
  }
}

/**
 * A JSON Lines header: the first line is a whole JSON object without "answers" (version 1 is one
 * text holding them); the reader then checks its version.
 */
function isLinesHeader(firstLine: string): boolean {
  try {
    const v = JSON.parse(firstLine) as unknown;
    return isObject(v) && v.answers === undefined;
  } catch {
    return false;
  }
}

/** The bytes a snapshot is read in at a time: a read stream's (64 KiB). */
const CHUNK_BYTES = 64 * 1024;

/**
 * The file's bytes a chunk at a time, read in place: a read stream's first read starts Node's
 * thread pool, and each chunk crosses to a pool thread and back (io/input-file.ts).
 */
function* fileChunks(file: string): Generator<Buffer> {
  const fd = openSync(file, 'r');
  try {
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) return;
      yield chunk.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the line at `offset` again (`length` bytes, UTF-8 checked when first read), from the
 * file as it was: a file changed since (replaced, appended to, rewritten) is refused, never
 * replayed as the answers it held.
 */
function lineReader(file: string, displayPath: string, first: Stats): (offset: number, length: number) => string {
  return (offset, length) => {
    const fd = openSync(file, 'r');
    try {
      const now = fstatSync(fd);
      // Stryker disable next-line ConditionalExpression: no test can put a file of the same inode number on another device
      if (now.ino !== first.ino || now.dev !== first.dev || now.size !== first.size || now.mtimeMs !== first.mtimeMs) {
        throw new Error(`${displayPath}: the snapshot file changed while it was replayed: run again`);
      }
      const bytes = Buffer.allocUnsafe(length);
      // Stryker disable next-line StringLiteral: unreachable from a file of the size read (checked above); kept against a read cut short
      if (readSync(fd, bytes, 0, length, offset) !== length) throw new Error(`${displayPath}: the snapshot file ended before a line it held`);
      return bytes.toString('utf8');
    } finally {
      closeSync(fd);
    }
  };
}

/** A snapshot's text (either version): bad input at file:line:column when malformed. */
export function parseSnapshot(text: string, displayPath: string): SnapshotFile {
  const end = text.indexOf('\n');
  // Stryker disable next-line EqualityOperator: a text that starts with a newline is no header either way
  if (!isLinesHeader(end < 0 ? text : text.slice(0, end))) return parseSnapshotText(text, displayPath);
  const reader = new SnapshotLineReader(displayPath);
  for (const line of text.split('\n')) reader.accept(line);
  return reader.finish();
}

/**
 * Reads a snapshot file (`-`: standard input) a line at a time; a version-1 file (one JSON text)
 * is read whole, as before. Each line is checked as UTF-8 and JSON on its own.
 */
export async function readSnapshot(file: string, displayPath: string): Promise<SnapshotFile> {
  // Pages are read again from the file when replayed: it must be the file read now. A pipe
  // (standard input, `<(…)`) cannot be read again: its lines are kept.
  let again: ((offset: number, length: number) => string) | undefined;
  // Stryker disable next-line ConditionalExpression: standard input is read by the CLI's test (`check --from -`, spawned)
  if (file !== STDIN) {
    try {
      const stat = statSync(file);
      if (stat.isFile()) again = lineReader(file, displayPath, stat);
    } catch (err) {
      throw fileError(displayPath, `cannot read snapshot: ${(err as Error).message}`);
    }
  }
  // A file is read in place; standard input and a pipe (`<(…)`) through a stream, which waits for them.
  // Stryker disable next-line ConditionalExpression,StringLiteral,ObjectLiteral: standard input, as above; a file read through a stream reads the same (time only: test/cli/startup.test.ts)
  const chunks = again ? fileChunks(file) : file === STDIN ? createReadStream('', { fd: 0 }) : createReadStream(file);
  // Until the first line ends the version is unknown; version 1 (one JSON text) is read whole.
  let mode: 'unknown' | 'lines' | 'whole' = 'unknown';
  const held: Buffer[] = [];
  const reader = new SnapshotLineReader(displayPath);
  let line = 0;
  let offset = 0;
  const take = (bytes: Buffer) => {
    line++;
    const at = offset;
    offset += bytes.length + 1;
    let text: string;
    try {
      text = decodeUtf8(bytes, displayPath);
    } catch (err) {
      throw onLine(err, line);
    }
    // The closure holds two numbers, not `bytes`: a view of the read chunk would keep it.
    const reread = again;
    const length = bytes.length;
    reader.accept(text, reread && (() => reread(at, length)));
  };
  try {
    for await (let chunk of chunks as Iterable<Buffer> | AsyncIterable<Buffer>) {
      if (mode === 'whole') {
        held.push(chunk);
        continue;
      }
      // Stryker disable next-line ConditionalExpression: every answer line would pass as a header (an object without `answers`): time only
      if (mode === 'unknown') {
        // Only the new chunk is searched: a version-1 file written on one line is not re-joined
        // and re-searched at every chunk.
        const end = chunk.indexOf(0x0a);
        if (end < 0) {
          held.push(chunk);
          continue;
        }
        const before = held.reduce((n, b) => n + b.length, 0);
        chunk = Buffer.concat([...held.splice(0), chunk]);
        mode = isLinesHeader(chunk.subarray(0, before + end).toString('utf8')) ? 'lines' : 'whole';
        if (mode === 'whole') {
          held.push(chunk);
          continue;
        }
      }
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        take(held.length ? Buffer.concat([...held.splice(0), chunk.subarray(start, nl)]) : chunk.subarray(start, nl));
        start = nl + 1;
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty piece held joins as nothing
      if (start < chunk.length) held.push(chunk.subarray(start));
    }
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw fileError(displayPath, `cannot read snapshot: ${(err as Error).message}`);
  }
  const rest = Buffer.concat(held);
  if (mode !== 'lines') {
    const text = decodeUtf8(rest, displayPath);
    // Stryker disable next-line ConditionalExpression: parseSnapshot reads a version-1 text as parseSnapshotText does
    return mode === 'unknown' ? parseSnapshot(text, displayPath) : parseSnapshotText(text, displayPath);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty last line is skipped as a blank one
  if (rest.length > 0) take(rest);
  return reader.finish();
}
