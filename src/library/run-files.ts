// The files one run reads and writes, compared before any request: two outputs naming one file
// leave only the last one written (`--history h.sqlite -o json=h.sqlite` replaced the run
// history with a report), and an output naming an input overwrites it (the config, a manifest,
// the waivers, the snapshot replayed).
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config/index.js';
import type { InputProblem } from '../core/problem.js';
import { displayPath } from '../core/display-path.js';
import { isPostgresUrl } from '../config/history.js';

/** A file of the run (`--output json=report.json`, the config), named as the problem will name it. */
export interface NamedFile {
  name: string;
  file: string;
}

/**
 * Problems of files named twice: each written file that another written file or a file the run
 * reads also names. Writing the baseline the run compares with (`--baseline b --write-baseline
 * b`) is a ratchet, allowed.
 */
export function fileClashes(written: readonly NamedFile[], read: readonly NamedFile[], cwd: string): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Map<string, string>();
  const reads = read.map((r) => ({ ...r, real: realPath(path.resolve(cwd, r.file)) }));
  for (const w of written) {
    const shown = displayPath(path.resolve(cwd, w.file), cwd);
    const file = realPath(path.resolve(cwd, w.file));
    const earlier = seen.get(file);
    if (earlier !== undefined) problems.push({ file: w.name, line: 0, column: 0, message: `${shown} is also ${earlier}: one would overwrite the other` });
    else seen.set(file, w.name);
    const input = reads.find((r) => r.real === file && !(r.name === '--baseline' && w.name === '--write-baseline'));
    if (input) problems.push({ file: w.name, line: 0, column: 0, message: `${shown} is ${input.name}, which this run reads: it would be overwritten` });
  }
  return problems;
}

/**
 * The file a path reaches, links followed (a write follows them too): its real path, or, for a
 * file not there yet, the real path of its nearest existing folder with the rest appended.
 */
function realPath(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    const parent = path.dirname(file);
    return parent === file ? file : path.join(realPath(parent), path.basename(file));
  }
}

/** What a check run writes itself (the baseline, a history file) beside the caller's files. */
export function runWrites(options: { writeBaseline?: string }, history: string | null, extra: readonly NamedFile[]): NamedFile[] {
  return [
    ...extra,
    ...(options.writeBaseline ? [{ name: '--write-baseline', file: options.writeBaseline }] : []),
    ...(history && !isPostgresUrl(history) ? [{ name: 'the run history', file: history }] : []),
  ];
}

/** What a check run reads from files: its config, policies, manifests, waivers, baseline and snapshot. */
export function runReads(config: Config, policyFiles: readonly string[], options: { baseline?: string; from?: string }): NamedFile[] {
  return [
    ...(config.file ? [{ name: 'the config', file: config.file }] : []),
    ...policyFiles.map((file) => ({ name: 'a policy file', file })),
    ...Object.values(config.manifestFiles)
      .flat()
      .map((file) => ({ name: 'a manifest', file })),
    ...(config.waiversFile ? [{ name: 'the waivers file', file: config.waiversFile }] : []),
    ...(options.baseline ? [{ name: '--baseline', file: options.baseline }] : []),
    ...(options.from && options.from !== '-' ? [{ name: '--from', file: options.from }] : []),
  ];
}
