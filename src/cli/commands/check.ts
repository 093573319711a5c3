// `steward check`: evaluate, report, exit 0/1/2/3 (DESIGN §4, §9). With --sandbox it is the
// demo: the run exits 0 when it worked, and says what a real run's exit code would be (only
// with the demo config: `--sandbox --config mine.yaml` exits like a real run).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { fail, print, warn } from '../io.js';
import { assertWritableOutputs, writeReports, warnEvaluationErrors } from '../report-output.js';
import { addReportOptions, addRunOptions, type RunFlags, withTarget } from '../run-options.js';
import { emptyRunProblem, evaluate, exitCodeFor } from '../../library/index.js';

export function registerCheck(program: Command, ctx: CliContext): void {
  const cmd = program.command('check').description('evaluate the policies against the instance and report');
  addRunOptions(cmd);
  addReportOptions(cmd);
  cmd
    .option('--baseline <file>', 'fail only on findings not in this baseline')
    .option('--write-baseline <file>', "record this run's findings as the baseline")
    .option('--history [file]', "record the run in this history and report each finding as new, open or reopened (bare: .steward/history.sqlite beside the config; default: the config's history)")
    .option('--allow-empty', 'let a run that evaluated no resource pass (default: exit 2)')
    .action(async (flags: RunFlags & { allowEmpty?: boolean }) => {
      const { io } = ctx;
      assertWritableOutputs(flags.output ?? [], io);
      const evaluation = await withTarget(flags, io, evaluate);
      const { report, warnings } = evaluation;
      if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
      warn(io, ...warnings.map((w) => `steward: ${w}`));
      writeReports(report, flags.format ?? 'text', flags.output ?? [], io);
      warnEvaluationErrors(report, io);
      const empty = emptyRunProblem(evaluation, 'pass --allow-empty');
      if (empty && !flags.allowEmpty) {
        fail(io, `steward: ${empty}`);
        ctx.exitCode = 2;
        return;
      }
      const code = exitCodeFor(report);
      if (flags.sandbox && !flags.config && code === 1) {
        // The demo (demo config on the demo instance) breaks policies on purpose: the run
        // worked, so npm start succeeds. With the user's own config it is a real run.
        const line = `sandbox demo: these violations are planted (demo/PLANTED.md); a real run would exit 1 (failOn: ${report.failOn}).`;
        if ((flags.format ?? 'text') === 'text') print(io, `\n${line}\n`);
        else warn(io, line);
        ctx.exitCode = 0;
        return;
      }
      ctx.exitCode = code;
    });
}
