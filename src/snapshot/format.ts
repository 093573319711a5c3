// The snapshot file (DESIGN §12): every API answer a run needed, keyed by operation and
// arguments. It never holds a token or a header: only arguments and response bodies.
import { writeFile } from 'node:fs/promises';
import type { OperationId } from '../client/types.js';
import { canonicalJson } from '../engine/fingerprint.js';
import { fileError, parseJsonFile, readInputFile } from '../input-file.js';

export const SNAPSHOT_VERSION = 1;

/** A read that failed, as recorded (ApiError's fields without its cause). */
export interface RecordedError {
  message: string;
  kind?: string;
  status?: number;
  method?: string;
  path?: string;
  apiMessage?: string;
}

export interface RecordedAnswer {
  operation: OperationId;
  args: unknown[];
  /** Paged reads: every page read, in order. */
  pages?: unknown[][];
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

export async function writeSnapshot(file: string, snapshot: SnapshotFile): Promise<void> {
  await writeFile(file, `${JSON.stringify(snapshot, null, 2)}\n`);
}

export function parseSnapshot(text: string, displayPath: string): SnapshotFile {
  const s = parseJsonFile(text, displayPath, 'snapshot') as Partial<SnapshotFile> | null;
  if (!s || typeof s !== 'object' || s.version !== SNAPSHOT_VERSION) {
    throw fileError(displayPath, `snapshot must have "version": ${SNAPSHOT_VERSION}`);
  }
  if (!Array.isArray(s.answers) || !s.answers.every((a) => a && typeof a.operation === 'string' && Array.isArray(a.args))) {
    throw fileError(displayPath, 'snapshot "answers" must be an array of { operation, args, ... }');
  }
  return { version: SNAPSHOT_VERSION, instance: String(s.instance ?? ''), recordedAt: String(s.recordedAt ?? ''), answers: s.answers };
}

export async function readSnapshot(file: string, displayPath: string): Promise<SnapshotFile> {
  return parseSnapshot(await readInputFile(file, displayPath, 'snapshot'), displayPath);
}
