// `fix: plan` and `fix: apply` in the Action (DESIGN §10, §11): the plan is made from the run's
// own evaluation over the same connection, like `steward fix`, and goes into the job summary.
// apply needs `fix-confirm: true` (checked with the inputs, before any request), sends the plan
// one journaled request at a time, and never rewrites manifests (the repo is changed by PRs).
import type { FixMode } from './inputs.js';
import { applyFixes, type ApplyResult, type Connection, defaultJournalPath, displayPath, type Evaluation, type FixPlan, planFixes as planRunFixes, renderPlanText } from '../library/index.js';

export interface FixOutcome {
  plan: FixPlan;
  applied: ApplyResult | null;
  /** Workspace-relative journal path, when anything was sent. */
  journal: string | null;
  /** Why `apply` sent nothing although asked to. */
  notApplied: string | null;
}

/** Like `steward fix --apply` (exit 3 before applying): a run with evaluation errors applies nothing. */
export const NOT_APPLIED_ON_ERRORS = 'not applied: some policies could not be evaluated, so the plan may be incomplete';

export async function runFix(
  mode: Exclude<FixMode, 'none'>,
  evaluation: Evaluation,
  connection: Connection,
  workspace: string,
): Promise<FixOutcome> {
  const { report } = evaluation;
  const plan = await planRunFixes(evaluation, connection, { displayRoot: workspace });
  if (mode === 'plan' || plan.changes.length === 0) return { plan, applied: null, journal: null, notApplied: null };
  if (report.summary.gate === 'error') return { plan, applied: null, journal: null, notApplied: NOT_APPLIED_ON_ERRORS };
  const journalPath = defaultJournalPath(workspace);
  const applied = await applyFixes(plan, {
    api: connection.api,
    journalPath,
    root: workspace,
  });
  return { plan, applied, journal: displayPath(journalPath, workspace), notApplied: null };
}

/** The job summary section: what was (or would be) sent, and what happened. */
export function fixMarkdown(outcome: FixOutcome): string {
  const text = renderPlanText(
    outcome.plan,
    outcome.applied || outcome.notApplied ? null : 'Nothing was written. Set `fix: apply` and `fix-confirm: true` to send these requests.',
  );
  const fence = '`'.repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  const lines = ['## Fix plan', '', `${fence}text`, text.trimEnd(), fence];
  const a = outcome.applied;
  if (a) {
    lines.push('', `**Applied ${a.applied.length} of ${outcome.plan.changes.length} changes**` +
      (a.failed.length ? `, ${a.failed.length} failed, ${a.skipped.length} not attempted` : '') +
      (outcome.journal ? `; journal: \`${outcome.journal}\`` : ''));
    for (const e of a.errors) lines.push(`- ${e}`);
  }
  if (outcome.notApplied) lines.push('', `**Nothing was sent**: ${outcome.notApplied}.`);
  return `${lines.join('\n')}\n`;
}
