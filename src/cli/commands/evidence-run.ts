// What `steward evidence` and `steward verify` do (their flags are evidence.ts). Loaded when
// either runs: `steward evidence --help` loads none of it.
import path from 'node:path';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { warnEvaluationErrors } from '../report-output.js';
import { refusedAsEmpty, type RunFlags } from '../run-options.js';
import { withTarget } from '../run-target.js';
import { displayPath, exitCodeFor, type Report, verifyEvidence, writeEvidence } from '../../library/index.js';
import { formatReport } from '../../report/index.js';

/** The pack's reports; `verify` renders the human ones again from the pack's JSON to compare. */
const renderPack = (report: Report, cwd: string) => ({
  'report.json': formatReport('json', report, { color: false, cwd }),
  'report.md': formatReport('markdown', report, { color: false, cwd }),
  'report.html': formatReport('html', report, { color: false, cwd }),
});

export async function runEvidence(ctx: CliContext, flags: RunFlags & { out: string }): Promise<void> {
  const { io } = ctx;
  const out = path.resolve(io.cwd, flags.out);
  const { report, files, empty } = await withTarget(flags, io, (options) => writeEvidence(options, out, renderPack, (message) => warn(io, `steward: ${message}`)));
  if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
  print(io, `wrote ${displayPath(out, io.cwd)}: ${files.length} files, verdict ${report.summary.gate} (${report.summary.violations} violations, ${report.summary.errors} errors)\n`);
  warnEvaluationErrors(report, io);
  // A pack of a run that evaluated nothing says error (its report's gate): exit 2, as check.
  ctx.exitCode = refusedAsEmpty(empty, flags) ? 2 : exitCodeFor(report);
}

export async function runVerify(ctx: CliContext, dir: string): Promise<void> {
  const { io } = ctx;
  const result = await verifyEvidence(path.resolve(io.cwd, dir), renderPack);
  if (result.ok) {
    print(io, `verified: ${result.files} files match their hashes; re-evaluation gives the recorded verdict (${result.gate}) and all ${result.findings} findings\n`);
    ctx.exitCode = 0;
    return;
  }
  print(io, `${result.differences.length} difference${result.differences.length === 1 ? '' : 's'}:\n`);
  for (const d of result.differences) print(io, `  ${d}\n`);
  warn(io, 'steward: the evidence pack does not verify');
  ctx.exitCode = 1;
}
