// `steward fix` (DESIGN §10): evaluate like check, then print the plan of API calls that would
// fix what can be fixed. Nothing is written without --apply; --apply asks on a TTY unless
// --yes, and without a TTY and without --yes it refuses before any request (exit 2).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { formatParser, parsePositiveInt } from '../options.js';
import { warnEvaluationErrors } from '../report-output.js';
import { addRunOptions, type RunFlags, withTarget } from '../run-options.js';
import {
  applyFixes,
  type CheckOptions,
  type Connection,
  defaultJournalPath,
  displayPath,
  evaluateOn,
  type FixPlan,
  InputError,
  lockFiles,
  MAX_CHANGES_DEFAULT,
  type PreparedRun,
  planFixes,
  prepareRun,
  type ResumeJournal,
  readPlan,
  readResumeJournal,
  renderPlanJson,
  renderPlanText,
  resumePlan,
  withConnection,
  writeBackChange,
  writeBackPlan,
} from '../../library/index.js';

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
  const cmd = program.command('fix').description('plan (and with --apply, make) the API calls that fix violations');
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
  const journalPath = flags.journal ? path.resolve(io.cwd, flags.journal) : defaultJournalPath(io.cwd);
  const shown = (file: string) => displayPath(file, io.cwd);
  // Two runs applying from one journal would both read it before either writes, and send every
  // change twice: the journal is locked before it is read.
  if (flags.apply) mkdirSync(path.dirname(journalPath), { recursive: true });
  const journalLock = flags.apply ? lockFiles([journalPath], 'fix --apply', shown) : null;
  try {
    await runFixLocked(flags, ctx, journalPath);
  } finally {
    journalLock?.release();
  }
}

async function runFixLocked(flags: FixFlags, ctx: CliContext, journalPath: string): Promise<void> {
  const { io } = ctx;
  // An existing --journal is resumed from: what it shows applied is not planned again.
  const journal = flags.journal ? readResumeJournal(journalPath, displayPath(journalPath, io.cwd)) : null;
  const resumed = (plan: FixPlan) => (journal ? resumePlan(plan, journal) : plan);
  if (flags.plan && !flags.apply && !flags.write) {
    // Showing a saved plan needs no instance.
    const plan = resumed(readPlan(path.resolve(io.cwd, flags.plan)));
    print(io, flags.format === 'json' ? renderPlanJson(plan) : renderPlanText(plan));
    ctx.exitCode = 0;
    return;
  }

  const savedPlan = flags.plan ? readPlan(path.resolve(io.cwd, flags.plan)) : null;
  await withTarget(flags, io, async (options) => {
    const prepared = await prepareRun(options);
    // Manifests a run may rewrite (--write), or whose declared state it applies, are held too.
    const manifests = flags.apply || flags.write ? Object.values(prepared.config.manifestFiles).flat() : [];
    const held = lockFiles(manifests, flags.apply ? 'fix --apply' : 'fix --write', (f) => displayPath(f, io.cwd));
    try {
      await withConnection(options, prepared, (connection) => fixOn(flags, ctx, { options, prepared, connection, savedPlan, journal, journalPath }));
    } finally {
      held.release();
    }
  });
}

interface FixRun {
  options: CheckOptions;
  prepared: PreparedRun;
  connection: Connection;
  savedPlan: FixPlan | null;
  journal: ResumeJournal | null;
  journalPath: string;
}

/** Plans (or takes the saved plan), then prints, writes back or applies it over the open connection. */
async function fixOn(flags: FixFlags, ctx: CliContext, run: FixRun): Promise<void> {
  const { io } = ctx;
  const { options, prepared, connection, savedPlan, journal, journalPath } = run;
  const resumed = (plan: FixPlan) => (journal ? resumePlan(plan, journal) : plan);
  {
    let plan: FixPlan;
    if (savedPlan) {
      if (savedPlan.instance && savedPlan.instance !== connection.instance && !flags.sandbox) {
        throw inputProblem('--plan', `the plan was made for ${savedPlan.instance}, not ${connection.instance}`);
      }
      plan = resumed(savedPlan);
      const done = plan.alreadyApplied?.length ?? 0;
      if (journal && done > 0) warn(io, `${done} change(s) of the plan already applied per ${journal.file}: not sent again`);
    } else {
      const evaluation = await evaluateOn(options, prepared, connection);
      if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
      warn(io, ...evaluation.warnings.map((w) => `steward: ${w}`));
      warnEvaluationErrors(evaluation.report, io);
      plan = resumed(await planFixes(evaluation, connection, { displayRoot: io.cwd, allowOptIn: flags.includeOptIn }));
      print(io, flags.format === 'json' ? renderPlanJson(plan) : renderPlanText(plan, flags.apply || flags.write ? null : undefined));
      if (flags.planOut) {
        const out = path.resolve(io.cwd, flags.planOut);
        writeFileSync(out, prepared.config.secrets.redact(renderPlanJson(plan)));
        warn(io, `plan saved to ${displayPath(out, io.cwd)}`);
      }
      if (evaluation.report.summary.gate === 'error') {
        if (flags.apply) {
          const failed = evaluation.report.policies.filter((p) => p.status === 'error').length;
          warn(
            io,
            `not applied: ${failed} ${failed === 1 ? 'policy' : 'policies'} could not be evaluated (fix them or narrow the run with --only)`,
          );
        }
        ctx.exitCode = 3;
        return;
      }
    }

    if (!flags.apply) {
      if (flags.write) {
        // Also the manifests of changes the journal shows already applied.
        const written = writeBackPlan(plan, io.cwd, flags.maxChanges);
        for (const f of written.written) warn(io, `rewrote ${f}`);
      }
      ctx.exitCode = 0;
      return;
    }
    const result = await applyFixes(plan, {
      api: connection.api,
      journalPath,
      root: io.cwd,
      maxChanges: flags.maxChanges,
      confirm: flags.yes ? undefined : (p) => confirmOnTerminal(p, connection.instance, ctx),
      onApplied: flags.write ? (change) => void writeBackChange(change, io.cwd) : undefined,
    });
    if (result.cancelled) {
      warn(io, 'nothing applied.');
      ctx.exitCode = 0;
      return;
    }
    warn(
      io,
      `applied ${result.applied.length} of ${plan.changes.length} changes` +
        (result.failed.length ? `, ${result.failed.length} failed, ${result.skipped.length} not attempted` : '') +
        (plan.changes.length ? `; journal: ${displayPath(journalPath, io.cwd)}` : ''),
    );
    for (const e of result.errors) warn(io, `  ${e}`);
    const rewriteErrors = flags.write ? writeBackAlreadyApplied(plan, io.cwd) : [];
    for (const e of rewriteErrors) warn(io, `  ${e}`);
    if (!flags.write && result.applied.length > 0) {
      // The permission endpoints cannot be read back: the manifests are what the next run checks.
      warn(io, 'the manifests still declare the old state: run with --write, or update the manifests, or the next check still fails');
    }
    ctx.exitCode = result.ok && rewriteErrors.length === 0 ? 0 : 3;
  }
}

/** `--apply --write`: the manifests of changes the journal shows applied get the fixed state too. */
function writeBackAlreadyApplied(plan: FixPlan, root: string): string[] {
  const errors: string[] = [];
  for (const a of plan.alreadyApplied ?? []) {
    try {
      writeBackChange(a, root);
    } catch (err) {
      errors.push(`${a.resource.kind} ${a.resource.id} (already applied) was not written back: ${(err as Error).message}`);
    }
  }
  return errors;
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
