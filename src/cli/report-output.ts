// Writes a report: the chosen format on stdout (alone), each --output file, and on stderr why
// a run could not evaluate (the text of the API errors, e.g. the 401).
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { blobUrlFromEnv, type Format, formatReportChunks, type GroupBy, stoppedNote } from '../report/index.js';
import { type CliIo, colorFor, columnsOf, fail, redact } from './io.js';
import type { OutputTarget } from './options.js';
import { InputError, type Report, unwritableProblem, withoutWorkflowCommands, writeWholeSync } from '../library/without-policies.js';

/**
 * The repository the run is in: GITHUB_WORKSPACE when the cwd is inside it, else the nearest
 * folder above the cwd holding `.git`, else the cwd. SARIF paths are relative to it.
 */
export function repositoryRoot(io: Pick<CliIo, 'cwd' | 'env'>): string {
  const workspace = io.env.GITHUB_WORKSPACE;
  if (workspace && !path.relative(path.resolve(workspace), io.cwd).startsWith('..')) return path.resolve(workspace);
  for (let dir = io.cwd; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    if (path.dirname(dir) === dir) return io.cwd;
  }
}

/** An --output file that cannot be written is bad input before any request (exit 2). */
export function assertWritableOutputs(outputs: OutputTarget[], io: CliIo): void {
  const problems = outputs.flatMap((out) => unwritableProblem('--output', path.resolve(io.cwd, out.path), `${out.format}=${out.path}`) ?? []);
  if (problems.length > 0) throw new InputError(problems);
}

export function writeReports(report: Report, format: string, outputs: OutputTarget[], io: CliIo, groupBy?: GroupBy): void {
  // In a GitHub Actions job, markdown and HTML locations link to the file at the commit.
  const shared = { cwd: io.cwd, root: repositoryRoot(io), groupBy, blobUrl: blobUrlFromEnv(io.env) };
  for (const out of outputs) {
    const file = path.resolve(io.cwd, out.path);
    mkdirSync(path.dirname(file), { recursive: true });
    // Whole or not at all: a report a run could not finish never replaces the last one.
    writeWholeSync(file, (function* () {
      for (const chunk of formatReportChunks(out.format as Format, report, { color: false, ...shared })) yield redact(io, chunk);
    })());
  }
  const chunks = formatReportChunks(format as Format, report, {
    color: format === 'text' && colorFor(io.stdout, io.env, io.color),
    width: columnsOf(io.stdout),
    ...shared,
  });
  // Each piece ends a line, so redaction and the guard below see whole lines, as in the whole
  // text. `--format github` is workflow commands by design (its formatter escapes what it
  // carries); no line of any other format may become one.
  let last = '';
  for (const chunk of chunks) {
    const lines = redact(io, chunk);
    io.stdout.write(format === 'github' ? lines : withoutWorkflowCommands(lines));
    last = chunk;
  }
  if (!last.endsWith('\n')) io.stdout.write('\n');
}

/** The distinct reasons policies could not be evaluated, for stderr. */
export function evaluationErrors(report: Report): string[] {
  const reasons = new Set<string>();
  const runWide = new Set(report.findings.filter((f) => f.runWide).map((f) => f.message));
  for (const p of report.policies) if (p.status === 'error' && p.error && !runWide.has(p.error)) reasons.add(p.error);
  for (const f of report.findings) if (f.status === 'error' && !f.runWide) reasons.add(f.message);
  return [...reasons];
}

/** At most this many distinct error reasons are printed on stderr (the report has them all). */
export const MAX_ERRORS_ON_STDERR = 5;

export function warnEvaluationErrors(report: Report, io: CliIo): void {
  // A run-wide cause (a refused token, an unreachable host, the deadline): one message, then only the errors of their own.
  const stopped = stoppedNote(report);
  if (stopped) fail(io, `steward: could not evaluate: ${stopped}`);
  const reasons = evaluationErrors(report);
  if (reasons.length === 0) return;
  const failed = new Set([...report.findings.filter((f) => f.status === 'error' && !f.runWide).map((f) => f.policy), ...report.policies.filter((p) => p.status === 'error' && p.error && reasons.includes(p.error)).map((p) => p.id)]).size;
  fail(io, `steward: could not evaluate ${failed} ${failed === 1 ? 'policy' : 'policies'} (the gate fails closed):`);
  for (const r of reasons.slice(0, MAX_ERRORS_ON_STDERR)) fail(io, `  ${r}`);
  if (reasons.length > MAX_ERRORS_ON_STDERR) fail(io, `  … and ${reasons.length - MAX_ERRORS_ON_STDERR} more in the report`);
}
