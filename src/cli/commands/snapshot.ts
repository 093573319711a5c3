// `steward snapshot --out FILE`: a run whose every API answer is recorded into one JSON file
// (never a token or a header), for `steward check --from FILE`. Exit 0 when recorded, 3 when
// some read failed (the failure is recorded too), 2 on bad input.
import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { addRunOptions, type RunFlags } from '../run-options.js';
import { summaryOf } from './summaries.js';

export function registerSnapshot(program: Command, ctx: CliContext): void {
  const cmd = program.command('snapshot').description(summaryOf('snapshot'));
  // Recording needs no gate (--fail-on) and reads the live instance (not --from).
  addRunOptions(cmd, { gate: false, from: false });
  cmd.requiredOption('--out <file>', 'snapshot file to write').action(async (flags: RunFlags & { out: string }) => {
    const { io } = ctx;
    // Loaded here: `steward snapshot --help` loads no command body.
    const [{ displayPath, evaluate, InputError, spooledRecorder, unwritableProblem, withPageSpool, writeSnapshot }, { withTarget }, { warnEvaluationErrors }] = await Promise.all([
      import('../../library/index.js'),
      import('../run-target.js'),
      import('../report-output.js'),
    ]);
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
  });
}
