// `steward evidence --out DIR`: a check run written as a verifiable evidence pack;
// `steward verify DIR`: every hash checked and the run re-evaluated offline (exit 0 when all
// match, 1 naming each file or finding that differs).
import path from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { addRunOptions, refusedAsEmpty, type RunFlags } from '../run-options.js';
import type { Report } from '../../library/index.js';
import { summaryOf } from './summaries.js';

/**
 * The pack's reports; `verify` renders the human ones again from the pack's JSON to compare.
 * The formatters load with the first pack (`steward evidence --help` loads none).
 */
async function packRenderer(): Promise<(report: Report, cwd: string) => Record<string, string>> {
  const { formatReport } = await import('../../report/index.js');
  return (report, cwd) => ({
    'report.json': formatReport('json', report, { color: false, cwd }),
    'report.md': formatReport('markdown', report, { color: false, cwd }),
    'report.html': formatReport('html', report, { color: false, cwd }),
  });
}

export function registerEvidence(program: Command, ctx: CliContext): void {
  const cmd = program.command('evidence').description(summaryOf('evidence'));
  addRunOptions(cmd, { from: false });
  cmd
    .requiredOption('--out <dir>', 'new directory for the pack')
    .option('--baseline <file>', 'fail only on findings not in this baseline (the pack keeps it)')
    .action(async (flags: RunFlags & { out: string }) => {
      const { io } = ctx;
      // Loaded here: `steward evidence --help` loads no command body.
      const [{ displayPath, exitCodeFor, writeEvidence }, { withTarget }, { warnEvaluationErrors }, renderPack] = await Promise.all([
        import('../../library/index.js'),
        import('../run-target.js'),
        import('../report-output.js'),
        packRenderer(),
      ]);
      const out = path.resolve(io.cwd, flags.out);
      const { report, files, empty } = await withTarget(flags, io, (options) => writeEvidence(options, out, renderPack, (message) => warn(io, `steward: ${message}`)));
      if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
      print(io, `wrote ${displayPath(out, io.cwd)}: ${files.length} files, verdict ${report.summary.gate} (${report.summary.violations} violations, ${report.summary.errors} errors)\n`);
      warnEvaluationErrors(report, io);
      // A pack of a run that evaluated nothing says error (its report's gate): exit 2, as check.
      ctx.exitCode = refusedAsEmpty(empty, flags) ? 2 : exitCodeFor(report);
    });

}

export function registerVerify(program: Command, ctx: CliContext): void {
  program
    .command('verify')
    .description(summaryOf('verify'))
    .argument('<dir>', 'the pack (steward evidence --out DIR)')
    .action(async (dir: string) => {
      const { io } = ctx;
      const [{ verifyEvidence }, renderPack] = await Promise.all([import('../../library/index.js'), packRenderer()]);
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
    });
}
