// `steward explain POLICY RESOURCE`: runs the one policy as `check --only POLICY` would (same
// config, scope, requests), keeps the document of the one resource, and explains the policy's
// expressions on it: every sub-expression's value, the fields the policy reads, and for what came
// out false the value that would have passed (policy/explain.ts).
import type { Finding } from '../core/model.js';
import { type ExplainedExpression, explainExpression, explainJudgement } from '../policy/explain.js';
import type { Inspect } from '../engine/judge.js';
import { type Evaluation, evaluate } from './evaluate.js';
import type { CheckOptions } from './prepare.js';

/** At most this many `each` items are explained (the failing ones first). */
export const EXPLAIN_MAX_ITEMS = 20;

export interface ExplainOptions extends CheckOptions {
  policy: string;
  resource: string;
}

export interface ExplainedItem {
  /** `permissions[0]` for an item of `each`; null for the whole resource. */
  path: string | null;
  outcome: 'pass' | 'violation' | 'error' | 'not selected';
  expressions: ExplainedExpression[];
}

export interface Explanation {
  policy: { id: string; title: string; severity: string; kind: string };
  resource: { kind: string; id: string };
  /** Top-level fields of the resource the policy reads (`*`: any). */
  reads: string[];
  outcome: 'pass' | 'violation' | 'error' | 'not selected';
  each: ExplainedExpression | null;
  items: ExplainedItem[];
  /** The run's findings of this policy on this resource. */
  findings: Finding[];
  /** Items of `each` left out past EXPLAIN_MAX_ITEMS. */
  omittedItems: number;
}

/** The explanation, or why there is none: the run read no such resource for the policy. */
export async function explain(options: ExplainOptions): Promise<Explanation | { notFound: string }> {
  const target = explainTarget(options.policy, options.resource);
  const evaluation = await evaluate({ ...options, only: [options.policy], inspect: target.inspect });
  return target.explanation(evaluation);
}

/**
 * What a run needs to explain one policy on one resource: `inspect` for the run (check
 * --explain passes it to its own run), then `explanation` of the finished run.
 */
export function explainTarget(policyId: string, resourceId: string): { inspect: Inspect; explanation(evaluation: Evaluation): Explanation | { notFound: string } } {
  let doc: Record<string, unknown> | undefined;
  return {
    inspect: {
      policy: policyId,
      resource: resourceId,
      found: (d) => {
        doc = structuredClone(d);
      },
    },
    explanation: (evaluation) => explanationOf(evaluation, { policy: policyId, resource: resourceId }, doc),
  };
}

function explanationOf(evaluation: Evaluation, options: { policy: string; resource: string }, doc: Record<string, unknown> | undefined): Explanation | { notFound: string } {
  const policy = evaluation.prepared.selected.find((p) => p.id === options.policy);
  if (!policy) return { notFound: `no policy "${options.policy}" in this run` };
  const kind = policy.def.resource;
  if (!doc) {
    const listed = evaluation.run.collected[kind] ?? 0;
    return { notFound: `no ${kind} "${options.resource}" among the ${listed} ${kind} resources this run read for ${options.policy} (its scope, or a typo?)` };
  }
  const findings = evaluation.report.findings.filter((f) => f.policy === policy.id && f.resource.id === options.resource);
  // An item's outcome is its own findings'; the whole resource's, all of them.
  const outcomeOf = (path: string | null) => {
    const own = path === null ? findings : findings.filter((f) => f.path === path);
    if (own.some((f) => f.status === 'error')) return 'error' as const;
    if (own.some((f) => f.status !== 'error')) return 'violation' as const;
    return 'pass' as const;
  };
  const bindings = { resource: doc, params: policy.params, now: new Date(evaluation.report.startedAt) };
  const reads = policy.reads.select.all || policy.reads.judge.all ? ['*'] : [...new Set([...policy.reads.select.fields, ...policy.reads.judge.fields])].sort();

  let each: ExplainedExpression | null = null;
  const items: ExplainedItem[] = [];
  let omittedItems = 0;
  if (policy.each) {
    each = explainExpression('each', policy.each, bindings);
    const list = each.nodes[0]?.value;
    const entries = Array.isArray(list) ? list.map((item, i) => ({ item, path: `${policy.eachPath ?? 'each'}[${i}]` })) : [];
    // The failing items first, so a long list still shows why the resource fails.
    const ranked = [...entries].sort((a, b) => Number(outcomeOf(b.path) !== 'pass') - Number(outcomeOf(a.path) !== 'pass'));
    omittedItems = Math.max(0, ranked.length - EXPLAIN_MAX_ITEMS);
    for (const { item, path } of ranked.slice(0, EXPLAIN_MAX_ITEMS)) {
      const expressions = explainJudgement(policy, { ...bindings, item });
      const selected = expressions.find((e) => e.field === 'when')?.nodes[0]?.value !== false;
      items.push({ path, outcome: selected ? outcomeOf(path) : 'not selected', expressions });
    }
  } else {
    const expressions = explainJudgement(policy, bindings);
    const selected = expressions.find((e) => e.field === 'when')?.nodes[0]?.value !== false;
    items.push({ path: null, outcome: selected ? outcomeOf(null) : 'not selected', expressions });
  }
  const outcome = findings.some((f) => f.status === 'error') ? 'error' : findings.length > 0 ? 'violation' : items.every((i) => i.outcome === 'not selected') ? 'not selected' : 'pass';
  return {
    policy: { id: policy.id, title: policy.def.title, severity: policy.def.severity, kind },
    resource: { kind, id: options.resource },
    reads,
    outcome,
    each,
    items,
    findings,
    omittedItems,
  };
}
