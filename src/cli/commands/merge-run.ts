// What `steward merge` does (its flags are merge.ts). Loaded when the command runs.
import type { CliContext } from '../context.js';
import { exitCodeFor, type FailOn, fileClashes, InputError, mergeReportFiles } from '../../library/without-policies.js';
import type { OutputTarget } from '../options.js';
import { assertWritableOutputs, writeReports } from '../report-output.js';
import type { GroupBy } from '../../report/format-names.js';

export async function runMerge(ctx: CliContext, files: string[], flags: { failOn?: FailOn; allowSameInstance?: boolean; expect?: string[]; allowEmpty?: boolean; format?: string; output?: OutputTarget[]; groupBy?: GroupBy }): Promise<void> {
  const { io } = ctx;
  // An output naming a report merged, or another output, would leave one of them lost.
  const outputs = (flags.output ?? []).map((o) => ({ name: `--output ${o.format}=${o.path}`, file: o.path }));
  const clashes = fileClashes(outputs, files.map((file) => ({ name: 'a report merged', file })), io.cwd);
  if (clashes.length > 0) throw new InputError(clashes);
  assertWritableOutputs(flags.output ?? [], io);
  const report = await mergeReportFiles(files, { cwd: io.cwd, failOn: flags.failOn, allowSameInstance: flags.allowSameInstance, expect: flags.expect, allowEmpty: flags.allowEmpty });
  writeReports(report, flags.format ?? 'text', flags.output ?? [], io, flags.groupBy);
  ctx.exitCode = exitCodeFor(report);
}
