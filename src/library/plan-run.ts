// The library API's fix planning (DESIGN §10): the plan for one evaluated run, over the same
// connection, as `steward fix` and the Action's `fix: plan|apply` both need it.
import type { Connection } from './connect.js';
import type { Evaluation } from './evaluate.js';
import { collectDeclared, createDocChecker, type FixPlan, planFixes } from '../fix/index.js';
import { RESOURCE_KINDS } from '../resources/index.js';

export interface PlanRunOptions {
  /** Manifest paths in the plan are relative to this (cwd, or GITHUB_WORKSPACE). */
  displayRoot: string;
  /** Also plan opt-in fixes (dataset tags, which the platform may replace rather than add). */
  allowOptIn?: boolean;
}

export async function planRunFixes(evaluation: Evaluation, connection: Connection, options: PlanRunOptions): Promise<FixPlan> {
  const { prepared, report } = evaluation;
  const now = new Date(report.startedAt);
  return planFixes({
    findings: report.findings,
    policies: prepared.selected.map((p) => p.def),
    // Read once by prepareRun; again only when manifest paths are shown from another root (the Action's workspace).
    resources:
      options.displayRoot === prepared.cwd
        ? [...prepared.declared.values()].flat()
        : await collectDeclared(RESOURCE_KINDS, {
            api: connection.api,
            manifestFiles: prepared.config.manifestFiles,
            displayRoot: options.displayRoot,
          }),
    kinds: RESOURCE_KINDS,
    check: createDocChecker(prepared.selected, now),
    allowOptIn: options.allowOptIn,
    instance: connection.instance,
    now,
    api: connection.api,
  });
}
