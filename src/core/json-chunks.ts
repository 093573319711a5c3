// JSON.stringify(value, null, 2) and a newline, in pieces that each end a line. A report of
// 300,000 resources is ~10 MB of JSON (20 MB as the two-byte string one `›` in a description
// makes it); built whole and copied on its way to stdout it raised a run's peak RSS by ~30 MB.
// Long arrays, and the objects and arrays holding one, are written piece by piece; every other
// value by JSON.stringify itself, re-indented where it sits. The same pieces without the
// indentation (JSON.stringify(value)) are what a scan reads: a third less text, written in 60 % of the time.

export interface JsonChunking {
  /** Arrays longer than this are written element by element. */
  long: number;
  /** Whole lines are gathered up to this many characters before they are handed on. */
  chunk: number;
}

const CHUNKING: JsonChunking = { long: 256, chunk: 1 << 16 };
/** How deep below a value a long array is looked for (a report's ids are three levels down). */
const DEPTH = 3;
/** Elements of a long array written by one JSON.stringify. */
const BATCH = 512;

/** The text of `JSON.stringify(value, null, 2)` and a newline, as line-ended pieces. */
export function* jsonChunks(value: unknown, chunking: JsonChunking = CHUNKING): Generator<string, void, undefined> {
  // Whole lines are gathered up to `chunk` characters; a piece longer than that goes out as it
  // is (joined to the text before it, every gathered string would be copied once more).
  let lines = '';
  let partial = '';
  for (const piece of pieces(value, '', chunking.long, PRETTY)) {
    const cut = piece.lastIndexOf('\n') + 1;
    if (cut === 0) {
      partial += piece;
      continue;
    }
    const whole = partial + piece.slice(0, cut);
    partial = piece.slice(cut);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator,BlockStatement: how lines are gathered sizes the pieces, never their text (the pieces' size is tested)
    if (lines.length + whole.length < chunking.chunk) {
      lines += whole;
      continue;
    }
    if (lines !== '') yield lines;
    lines = '';
    // Stryker disable next-line ConditionalExpression,EqualityOperator: as above
    if (whole.length < chunking.chunk) lines = whole;
    else yield whole;
  }
  yield `${lines}${partial}\n`;
}

/** The text of `JSON.stringify(value)` in pieces, none of them a long array's whole text. */
// Stryker disable next-line StringLiteral: the compact layout writes no indentation, whatever it is given
export const jsonPieces = (value: unknown, long = CHUNKING.long): Iterable<string> => pieces(value, '', long, COMPACT);

/** How pieces are laid out: indented two spaces a level, one element or member a line, or not at all. */
interface Layout {
  /** What starts a line at `indent`. */
  line(indent: string): string;
  /** What follows a member's key. */
  colon: string;
  /** A value's own text at `indent`. */
  text(value: unknown, indent: string): string;
  /** The elements of `batch` as they stand in an array at `indent`, without the brackets. */
  batch(batch: unknown[], indent: string): string;
}

const PRETTY: Layout = { line: (indent) => `\n${indent}`, colon: ': ', text: stringified, batch: batchText };
const COMPACT: Layout = {
  line: () => '',
  colon: ':',
  // Stryker disable next-line StringLiteral: only a bare undefined has no JSON text, and a scan is never given one
  text: (value) => JSON.stringify(value) ?? '',
  batch: (batch) => JSON.stringify(batch).slice(1, -1),
};

function* pieces(value: unknown, indent: string, long: number, layout: Layout): Generator<string, void, undefined> {
  if (!holdsLong(value, long)) {
    yield layout.text(value, indent);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    yield '[';
    // Elements written whole go in batches, each one JSON.stringify: a call (or a generator step)
    // per id cost as much as writing the id.
    let start = 0;
    let comma = '';
    for (let i = 0; i <= value.length; i++) {
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: which elements one JSON.stringify writes changes the pieces, never the text
      const streamed = i < value.length && holdsLong(value[i], long);
      // Stryker disable next-line ConditionalExpression,EqualityOperator: as above
      if (i > start && (i === value.length || streamed || i - start === BATCH)) {
        // Apart: the batch's text is flat, and one joined to it would be copied again to be read.
        yield `${comma}${layout.line('')}`;
        yield layout.batch(value.slice(start, i), indent);
        comma = ',';
        start = i;
      }
      if (!streamed) continue;
      yield `${comma}${layout.line(inner)}`;
      comma = ',';
      yield* pieces(value[i], inner, long, layout);
      start = i + 1;
    }
    yield `${layout.line(indent)}]`;
    return;
  }
  // An object holding a long array: each member in turn (JSON.stringify leaves out those it cannot write).
  let first = true;
  yield '{';
  for (const [key, member] of Object.entries(value as object)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    yield `${first ? '' : ','}${layout.line(inner)}${JSON.stringify(key)}${layout.colon}`;
    first = false;
    yield* pieces(member, inner, long, layout);
  }
  yield `${layout.line(indent)}}`;
}

/**
 * Whether `value` is, or holds within DEPTH levels, an array longer than `long` (a value with
 * toJSON is written whole). Only a choice of how to write: a long array deeper down is written
 * whole, in the same text.
 */
// Stryker disable all: a value streamed or written whole is the same text (the property test holds either way)
function holdsLong(value: unknown, long: number, depth = DEPTH): boolean {
  if (value === null || typeof value !== 'object' || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    if (value.length > long) return true;
    if (depth > 0) for (const v of value) if (holdsLong(v, long, depth - 1)) return true;
    return false;
  }
  if (depth > 0) for (const key in value) if (Object.hasOwn(value, key) && holdsLong((value as Record<string, unknown>)[key], long, depth - 1)) return true;
  return false;
}
// Stryker restore all

/** The elements of `batch` as they stand in an array at `indent`, one per line, without the brackets. */
function batchText(batch: unknown[], indent: string): string {
  // Wrapped in one array per level of `indent`, JSON.stringify indents the batch's elements where
  // they stand (re-indenting its text after cost twice the writing); the wrappers' lines, (d + 1)
  // * (d + 2) characters at each end, are cut off.
  const d = indent.length / 2;
  let wrapped: unknown = batch;
  for (let i = 0; i < d; i++) wrapped = [wrapped];
  const text = JSON.stringify(wrapped, null, 2);
  const wrapper = (d + 1) * (d + 2);
  return text.slice(wrapper, text.length - wrapper);
}

/** JSON.stringify's text of `value` where it sits at `indent` (an object's members it leaves out never come here). */
function stringified(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2);
  // Stryker disable next-line ConditionalExpression,StringLiteral: at no indent the replacement changes nothing; it is spared
  return indent === '' ? text : text.replaceAll('\n', `\n${indent}`);
}
