// What `steward doctor` does (its flags are doctor.ts). Loaded when the command runs.
import type { CliContext } from '../context.js';
import { print } from '../io.js';
import type { RunFlags } from '../run-options.js';
import { withTarget } from '../run-target.js';
import { doctor, renderDoctorText } from '../../library/index.js';

export async function runDoctor(ctx: CliContext, flags: RunFlags & { format: string }): Promise<void> {
  const { io } = ctx;
  const report = await withTarget(flags, io, doctor);
  const text = flags.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorText(report);
  print(io, text);
  ctx.exitCode = report.ok ? 0 : 3;
}
