// What `steward snapshot` does (its flags are snapshot.ts): evaluate against the live instance,
// recording every answer, and write the snapshot whole. Loaded when the command runs.
import path from 'node:path';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { warnEvaluationErrors } from '../report-output.js';
import type { RunFlags } from '../run-options.js';
import { withTarget } from '../run-target.js';
import { displayPath, evaluate, InputError, spooledRecorder, unwritableProblem, withPageSpool, writeSnapshot } from '../../library/index.js';

export async function runSnapshot(ctx: CliContext, flags: RunFlags & { out: string }): Promise<void> {
  const { io } = ctx;
  const file = path.resolve(io.cwd, flags.out);
  // Written after the run: a file that cannot be written is bad input now, nothing sent.
  const unwritableOut = unwritableProblem('--out', file, flags.out);
  if (unwritableOut) throw new InputError([unwritableOut]);
  // Each page is spooled to a temporary file as it arrives, not held until the file is written.
  const { report, answers } = await withPageSpool(async (spool) => {
    const recorder = spooledRecorder(spool);
    const { report, warnings, prepared } = await withTarget(flags, io, (options) => evaluate({
      ...options,
      reportFiles: [{ name: '--out', file }],
      history: false,
      wrapApi: recorder.wrapApi,
    }));
    if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
    warn(io, warnings.map((w) => `steward: ${w}`));
    const snapshot = recorder.snapshot()!;
    await writeSnapshot(file, snapshot, prepared.config.secrets);
    return { report, answers: snapshot.answers.length };
  }, (why) => warn(io, `steward: ${why}`));
  print(io, `wrote ${displayPath(file, io.cwd)}: ${answers} answers, ${report.http.requests} requests\n`);
  warnEvaluationErrors(report, io);
  ctx.exitCode = report.summary.gate === 'error' ? 3 : 0;
}
