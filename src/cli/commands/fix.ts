// `steward fix` (DESIGN §10): evaluate like check, then print the plan of API calls that would
// fix what can be fixed. Nothing is written without --apply; --apply asks on a TTY unless
// --yes, and without a TTY and without --yes it refuses before any request (exit 2).
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { formatParser, parsePositiveInt } from '../options.js';
import { warnEvaluationErrors } from '../report-output.js';
import { addRunOptions, refusedAsEmpty, type RunFlags, withTarget } from '../run-options.js';
import {
  displayPath,
  type FixMode,
  type FixOutcome,
  type FixPlan,
  fix,
  InputError,
  MAX_CHANGES_DEFAULT,
  notAppliedCounts,
  readPlan,
  readResumeJournal,
  renderPlanJson,
  renderPlanText,
  resumePlan,
} from '../../library/index.js';
import { summaryOf } from './summaries.js';

interface FixFlags extends RunFlags {
  apply?: boolean;
  yes?: boolean;
  planOut?: string;
  plan?: string;
  journal?: string;
  maxChanges?: number;
  write?: boolean;
  includeOptIn?: boolean;
  format: 'text' | 'json';
}

const inputProblem = (file: string, message: string) => new InputError([{ file, line: 0, column: 0, message }]);

export function registerFix(program: Command, ctx: CliContext): void {
  const cmd = program.command('fix').description(summaryOf('fix'));
  addRunOptions(cmd);
  cmd
    .option('--apply', 'send the planned requests (asks first on a terminal)')
    .option('-y, --yes', 'apply without asking')
    .option('--plan-out <file>', 'save the plan as JSON')
    .option('--plan <file>', 'use this saved plan instead of evaluating (refused if its manifests changed)')
    .option('--journal <file>', 'journal to append to (default .steward/journal-<time>.jsonl); if it exists, what it shows applied is not planned again')
    .option('--max-changes <n>', `refuse a plan with more changes, before anything is sent or written (default ${MAX_CHANGES_DEFAULT})`, parsePositiveInt(100_000))
    .option('--write', 'rewrite the manifest files to the fixed state (comments and layout kept)')
    .option('--include-opt-in', 'also plan opt-in fixes (dataset tags: the POST may replace the tag list)')
    .option('-f, --format <format>', 'plan format on stdout: text|json', formatParser(['text', 'json']), 'text')
    .action(async (flags: FixFlags) => runFix(flags, ctx));
}

async function runFix(flags: FixFlags, ctx: CliContext): Promise<void> {
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
