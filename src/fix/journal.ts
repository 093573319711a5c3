// The fix journal (DESIGN §10): one JSON line per planned change, appended and fsynced before
// the next request starts, so after a crash or a failure the file says exactly what was sent.
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeAll } from '../io/write-whole.js';

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

/**
 * Appends one entry, whole or not at all, and waits until it is on disk. A line the disk could
 * take only part of is cut off again (a journal ending in half a line is no journal a resume
 * can read), and the failure is thrown.
 */
export function appendJournal(file: string, entry: JournalEntry): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const line = Buffer.from(`${JSON.stringify(entry)}\n`, 'utf8');
  const fd = openSync(file, 'a');
  try {
    const end = fstatSync(fd).size;
    try {
      writeAll(fd, line);
      fsyncSync(fd);
    } catch (error) {
      ftruncateSync(fd, end);
      fsyncSync(fd);
      throw error;
    }
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
