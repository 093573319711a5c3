// A run that evaluated no resource at all: what its report says stopped it, and what the CLI and
// the Action say when they refuse it. One place for the wording of `check` (which knows the empty
// kinds) and of `merge` (which has only the report), so both say the same thing the same way.
// Imports nothing but types: `merge` reaches neither CEL nor protobuf (library/without-policies.ts).
import type { Report, RunWideCause } from '../core/model.js';

/** An instance that evaluated nothing: its name and the kinds its policies found none of. */
export interface EmptyInstance {
  instance: string;
  kinds: string[];
}

const NAME_SOME = 'name some in scope';

/** What a refused empty run's report says stopped it (`check`, `fix`, `evidence`, the Action). */
export function emptyRunStop(kinds: readonly string[]): RunWideCause {
  return { cause: `the run evaluated nothing (no ${kinds.join(', ')} resources were found)`, advice: `${NAME_SOME}, or accept an empty run (\`steward check --allow-empty\`, the Action's \`allow-empty: true\`)` };
}

/** What `merge` says stopped an instance whose report shows no resource evaluated. */
export const EMPTY_REPORT_STOP: RunWideCause = {
  cause: 'the run evaluated nothing (its report shows no resource evaluated)',
  advice: 'name some in its scope, or accept an empty run (`steward merge --allow-empty`)',
};

/**
 * Why a run that evaluated nothing is refused, or null; `allow` says how to accept it. Each
 * instance that evaluated nothing is named when the run has several (the others' findings do not
 * make up for it: checked one by one, each would be refused).
 */
export function emptyRunProblem(evaluation: { empty: readonly EmptyInstance[]; report: Pick<Report, 'instances'> }, allow: string): string | null {
  if (evaluation.empty.length === 0) return null;
  const several = (evaluation.report.instances?.length ?? 0) > 1;
  const what = evaluation.empty.map((e) => `${several ? `instance ${e.instance}` : 'the run'} evaluated nothing: no ${e.kinds.join(', ')} resources were found`);
  return `${what.join('; ')}; ${NAME_SOME}, or ${allow} to accept an empty run`;
}
