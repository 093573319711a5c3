// Files a user names (config, policies, waivers, baseline, snapshot, manifests, journal): an
// unreadable file, or bytes that are not UTF-8, are bad input naming the file (exit 2), never
// a stack trace and never text with replacement characters sent on to the API.
// They are read synchronously: a run's first asynchronous file request starts Node's thread pool
// (four threads), and each one crosses to a pool thread and back (two wake-ups and an event loop
// turn); a run's few small files cost less read in place (~7 ms of `check --from` on Node 24).
import { readFileSync } from 'node:fs';
import { InputError } from '../core/problem.js';

/** The file name that means standard input (`--from -`). */
export const STDIN = '-';

/** An InputError about a whole file (no line to point at); `shown` is its display path. */
export function fileError(shown: string, message: string): InputError {
  return new InputError([{ file: shown, line: 0, column: 0, message }]);
}

// A byte order mark stays in the text, as `readFile(…, 'utf8')` kept it.
const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/** The bytes as text; the first byte that is not UTF-8 is bad input at its line and column. */
export function decodeUtf8(bytes: Uint8Array, shown: string): string {
  const text = lenient.decode(bytes);
  // Valid input re-encodes to the same bytes; the first difference is the first invalid byte.
  if (!text.includes('\uFFFD')) return text;
  const again = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length && bytes[at] === again[at]) at++;
  if (at === bytes.length) return text;
  const lineStart = bytes.lastIndexOf(0x0a, at - 1) + 1;
  const line = bytes.subarray(0, lineStart).filter((b) => b === 0x0a).length + 1;
  const column = [...lenient.decode(bytes.subarray(lineStart, at))].length + 1;
  const byte = `0x${bytes[at].toString(16).padStart(2, '0')}`;
  throw new InputError([{ file: shown, line, column, message: `not UTF-8 (byte ${byte}): save the file as UTF-8` }]);
}

/** The text of the `what` file (`cannot read waivers: ENOENT…`). */
export function readInputFileSync(file: string, shown: string, what: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw fileError(shown, `cannot read ${what}: ${(err as Error).message}`);
  }
  return decodeUtf8(bytes, shown);
}
