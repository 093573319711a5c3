// `fix: plan` and `fix: apply` in the Action (DESIGN §10, §11): the library's fix session on the
// run's own evaluation over the same connection (`fixWithin`), rendered into the job summary.
// apply needs `fix-confirm: true` (checked with the inputs, before any request), sends the plan
// one journaled request at a time, and never rewrites manifests (the repo is changed by PRs).
import type { FixMode } from './inputs.js';
import { type ApplyResult, type Connection, type Evaluation, type FixPlan, fixWithin, NOT_APPLIED_ON_ERRORS, notAppliedCounts, renderPlanText } from '../library/index.js';

export { NOT_APPLIED_ON_ERRORS };

export interface FixOutcome {
  plan: FixPlan;
  applied: ApplyResult | null;
  /** Workspace-relative journal path, when anything was sent. */
  journal: string | null;
  /** Why `apply` sent nothing although asked to. */
  notApplied: string | null;
}

export async function runFix(
  mode: Exclude<FixMode, 'none'>,
  evaluation: Evaluation,
  connection: Connection,
  workspace: string,
): Promise<FixOutcome> {
  const outcome = await fixWithin(evaluation, connection, { mode, root: workspace });
  // A plan of no change sends nothing: the summary says what a run with changes would do.
  const applied = outcome.plan.changes.length > 0 ? outcome.applied : null;
  return { plan: outcome.plan, applied, journal: applied ? outcome.journal : null, notApplied: outcome.notApplied };
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
      notAppliedCounts(a) +
      (outcome.journal ? `; journal: \`${outcome.journal}\`` : ''));
    for (const e of a.errors) lines.push(`- ${e}`);
  }
  if (outcome.notApplied) lines.push('', `**Nothing was sent**: ${outcome.notApplied}.`);
  return `${lines.join('\n')}\n`;
}
