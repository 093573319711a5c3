// Files a user names (waivers, baseline, snapshot, manifests): an unreadable file or one that
// is not JSON is bad input naming the file (exit 2), never a stack trace.
import { readFile } from 'node:fs/promises';
import { InputError } from '../core/problem.js';

/** An InputError about a whole file (no line to point at); `shown` is its display path. */
export function fileError(shown: string, message: string): InputError {
  return new InputError([{ file: shown, line: 0, column: 0, message }]);
}

/** The text of the `what` file (`cannot read waivers: ENOENT…`). */
export async function readInputFile(file: string, shown: string, what: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw fileError(shown, `cannot read ${what}: ${(err as Error).message}`);
  }
}

