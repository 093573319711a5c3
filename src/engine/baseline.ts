// Baselines (DESIGN §7): today's fingerprints recorded once; later runs fail only on new ones.
import { writeFile } from 'node:fs/promises';
import { fileError, parseJsonFile, readInputFile } from '../input-file.js';
import type { Finding } from '../report/model.js';

export interface BaselineFile {
  version: 1;
  createdAt: string;
  fingerprints: string[];
}

/** Violations (waived or not) are recorded; errors are not findings about the instance. */
function recorded(f: Finding): boolean {
  return f.status === 'violation' || f.status === 'waived';
}

export function createBaseline(findings: Finding[], now: Date): BaselineFile {
  const fingerprints = [...new Set(findings.filter(recorded).map((f) => f.fingerprint))].sort();
  return { version: 1, createdAt: now.toISOString(), fingerprints };
}

export async function writeBaseline(file: string, findings: Finding[], now: Date): Promise<BaselineFile> {
  const baseline = createBaseline(findings, now);
  await writeFile(file, `${JSON.stringify(baseline, null, 2)}\n`);
  return baseline;
}

export function parseBaseline(text: string, displayPath: string): BaselineFile {
  const b = parseJsonFile(text, displayPath, 'baseline') as Partial<BaselineFile> | null;
  if (!b || typeof b !== 'object' || b.version !== 1) throw fileError(displayPath, 'baseline must be { "version": 1, ... }');
  if (!Array.isArray(b.fingerprints) || !b.fingerprints.every((f) => typeof f === 'string')) {
    throw fileError(displayPath, 'baseline "fingerprints" must be an array of strings');
  }
  return { version: 1, createdAt: String(b.createdAt ?? ''), fingerprints: b.fingerprints };
}

export async function readBaseline(file: string, displayPath: string): Promise<BaselineFile> {
  return parseBaseline(await readInputFile(file, displayPath, 'baseline'), displayPath);
}

/** Each violation/waived finding becomes new or known; baseline entries not seen are resolved. */
export function compareBaseline(findings: Finding[], baseline: BaselineFile): { findings: Finding[]; resolved: string[] } {
  const known = new Set(baseline.fingerprints);
  const seen = new Set<string>();
  const out = findings.map((f) => {
    if (!recorded(f)) return { ...f, baseline: null };
    seen.add(f.fingerprint);
    return { ...f, baseline: known.has(f.fingerprint) ? ('known' as const) : ('new' as const) };
  });
  const resolved = [...known].filter((fp) => !seen.has(fp)).sort();
  return { findings: out, resolved };
}
