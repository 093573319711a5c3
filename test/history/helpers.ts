// What the history tests ask of a file: the problem an open says, and the runs it holds.
import { InputError } from '../../src/core/problem.js';
import { listRuns, openHistory } from '../../src/history/index.js';
import type { SqliteDriver } from '../../src/history/sqlite-drivers.js';

/** What `fn` refuses with, as `file: message` lines; `no error` when it does not. */
export function problemOf(fn: () => unknown): Promise<string> {
  return Promise.resolve()
    .then(fn)
    .then(
      () => 'no error',
      (e) => (e instanceof InputError ? e.problems.map((p) => `${p.file}: ${p.message}`).join('\n') : `not an InputError: ${e}`),
    );
}

/** The runs of the history at `file` as [run, violations], read with `driver` (the Node's by default). */
export async function runsOf(file: string, driver?: SqliteDriver): Promise<number[][]> {
  const db = await openHistory(file, 'history.sqlite', { create: false, driver });
  try {
    return (await listRuns(db)).map((r) => [r.run, r.violations]);
  } finally {
    await db.close();
  }
}
