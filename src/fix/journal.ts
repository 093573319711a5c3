// The fix journal (DESIGN §10): one JSON line per planned change, appended and fsynced before
// the next request starts, so after a crash or a failure the file says exactly what was sent.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';

export const JOURNAL_DIR = '.steward';

export interface JournalEntry {
  time: string;
  planId: string;
  /** The change's number in its plan (1-based). */
  change: number;
  policies: string[];
  resource: { kind: string; id: string };
  request: { method: string; path: string; body: unknown };
  /** The declared state before the change (the manifest's document). */
  before: unknown;
  status: 'applied' | 'failed' | 'skipped';
  error?: string;
}

/** `.steward/journal-2025-01-31T12-00-00-000Z.jsonl` under `root` (colons are not portable in names). */
export function defaultJournalPath(root: string, now: Date = new Date()): string {
  return path.join(root, JOURNAL_DIR, `journal-${now.toISOString().replaceAll(':', '-').replace('.', '-')}.jsonl`);
}

/** Appends one entry and waits until it is on disk. */
export function appendJournal(file: string, entry: JournalEntry): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const fd = openSync(file, 'a');
  try {
    writeSync(fd, `${JSON.stringify(entry)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function readJournal(file: string): JournalEntry[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as JournalEntry);
}
