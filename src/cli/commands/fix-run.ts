// What `steward fix` does (its flags are fix.ts): nothing is written without --apply; --apply
// asks on a TTY unless --yes, and without a TTY and without --yes it refuses before any request
// (exit 2).
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { warnEvaluationErrors } from '../report-output.js';
import { refusedAsEmpty } from '../run-options.js';
import { withTarget } from '../run-target.js';
import {
  displayPath,
  type FixMode,
  type FixOutcome,
  type FixPlan,
  fix,
  InputError,
  notAppliedCounts,
  readPlan,
  readResumeJournal,
  renderPlanJson,
  renderPlanText,
  resumePlan,
} from '../../library/index.js';
import type { FixFlags } from './fix.js';

const inputProblem = (file: string, message: string) => new InputError([{ file, line: 0, column: 0, message }]);

export async function runFix(flags: FixFlags, ctx: CliContext): Promise<void> {
  const { io } = ctx;
  const interactive = Boolean(process.stdin.isTTY && io.stderr.isTTY);
  // Refusals come first: nothing is read from or sent to the instance before them.
  if (flags.apply && !flags.yes && !interactive) {
    throw inputProblem('--apply', 'no terminal to confirm on: add --yes to apply without asking');
  }
  if (flags.apply && flags.from) throw inputProblem('--apply', 'cannot apply against a snapshot (--from); it is read-only');
  const journal = flags.journal ? path.resolve(io.cwd, flags.journal) : undefined;
  if (flags.plan && !flags.apply && !flags.write) {
    // Showing a saved plan needs no instance.
    const saved = readPlan(path.resolve(io.cwd, flags.plan));
    const resume = journal ? readResumeJournal(journal, displayPath(journal, io.cwd)) : null;
    const plan = resume ? resumePlan(saved, resume) : saved;
    print(io, flags.format === 'json' ? renderPlanJson(plan) : renderPlanText(plan));
    ctx.exitCode = 0;
    return;
  }
  const mode: FixMode = flags.apply ? 'apply' : flags.write ? 'write' : 'plan';
  const planOut = flags.planOut ? path.resolve(io.cwd, flags.planOut) : undefined;
  const outcome = await withTarget(flags, io, (options) =>
    fix(options, {
      mode,
      root: io.cwd,
      journal,
      savedPlan: flags.plan ? path.resolve(io.cwd, flags.plan) : undefined,
      anyInstance: flags.sandbox,
      planOut,
      maxChanges: flags.maxChanges,
      includeOptIn: flags.includeOptIn,
      writeBack: flags.apply && flags.write,
      confirm: flags.yes ? undefined : (plan, instance) => confirmOnTerminal(plan, instance, ctx),
      onEvaluated: (evaluation) => {
        if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
        warn(io, evaluation.warnings.map((w) => `steward: ${w}`));
        warnEvaluationErrors(evaluation.report, io);
      },
      onPlan: (plan) => {
        if (flags.plan) return; // a saved plan was shown when it was made
        print(io, flags.format === 'json' ? renderPlanJson(plan) : renderPlanText(plan, flags.apply || flags.write ? null : undefined));
        if (planOut) warn(io, `plan saved to ${displayPath(planOut, io.cwd)}`);
      },
    }),
  );
  ctx.exitCode = report(outcome, flags, ctx);
}

/** What the session did, on stderr; the exit code. */
function report(outcome: FixOutcome, flags: FixFlags, ctx: CliContext): number {
  const { io } = ctx;
  const { plan } = outcome;
  if (flags.plan && outcome.alreadyApplied > 0) warn(io, `${outcome.alreadyApplied} change(s) of the plan already applied per ${flags.journal}: not sent again`);
  // Refused as check refuses it (said by warnEvaluationErrors): exit 2, no plan applied.
  if (outcome.evaluation && refusedAsEmpty(outcome.evaluation.empty, flags)) return 2;
  if (outcome.evaluation?.report.summary.gate === 'error') {
    if (flags.apply) {
      const failed = outcome.evaluation.report.policies.filter((p) => p.status === 'error').length;
      warn(io, `not applied: ${failed} ${failed === 1 ? 'policy' : 'policies'} could not be evaluated (fix them or narrow the run with --only)`);
    }
    return 3;
  }
  for (const f of outcome.written) warn(io, `rewrote ${f}`);
  if (!flags.apply) return 0;
  if (outcome.cancelled) {
    warn(io, 'nothing applied.');
    return 0;
  }
  const result = outcome.applied!;
  warn(
    io,
    `applied ${result.applied.length} of ${plan.changes.length} changes` +
      notAppliedCounts(result) +
      (outcome.journal ? `; journal: ${outcome.journal}` : ''),
  );
  for (const e of result.errors) warn(io, `  ${e}`);
  for (const e of outcome.writeErrors) warn(io, `  ${e}`);
  if (!flags.write && result.applied.length > 0) {
    // The permission endpoints cannot be read back: the manifests are what the next run checks.
    warn(io, 'the manifests still declare the old state: run with --write, or update the manifests, or the next check still fails');
  }
  return result.ok && outcome.writeErrors.length === 0 ? 0 : 3;
}

async function confirmOnTerminal(plan: FixPlan, instance: string, ctx: CliContext): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Apply ${plan.changes.length} change(s) to ${instance}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
    ctx.io.stderr.write('');
  }
}
