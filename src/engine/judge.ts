// One policy on one resource (DESIGN §5): the parts its selection reads, the selection, the
// parts only its judgement reads (loaded only when something was selected), the judgement, as
// a verdict. Synchronous wherever no part has to be waited for; engine/run.ts runs it over
// each kind's resources as they arrive.
import type { InstanceApi } from '../api/types.js';
import type { Finding } from '../core/model.js';
import type { CompiledPolicy } from '../policy/compile.js';
import type { CollectedResource, DocumentPart, ResourceKind } from '../resources/types.js';
import { type EvalEnv, failedItems, type Selection, selectItems } from './evaluate.js';
import { errorFinding, errorText, violationFinding } from './findings.js';
import type { createPartMemo, RunMemoState } from './memo.js';
import type { Column } from './column.js';

/** `steward explain`: hands over one resource's document, every part either expression reads loaded. */
export interface Inspect {
  policy: string;
  resource: string;
  found(doc: Record<string, unknown>): void;
}

type ReadSetLike = { all: boolean; fields: Iterable<string> };

/** The kind's parts an expression's reads name (every part when it reads the whole resource). */
export function partsRead(kind: ResourceKind, set: ReadSetLike): string[] {
  const fields = new Set(set.fields);
  return Object.keys(kind.parts).filter((name) => set.all || fields.has(name));
}

/** What one policy made of one resource. */
export interface ResourceVerdict {
  selected: number;
  findings: Finding[];
  /** A shared read failed (e.g. the misconfigured list): reported once per policy. */
  sharedError?: unknown;
}

/** What every verdict of one run shares: the client, the run's memos, and where its reads are noted. */
export interface JudgeContext {
  api: InstanceApi;
  memo: RunMemoState;
  partMemo: ReturnType<typeof createPartMemo>;
  now: Date;
  /** Notes an error that may be run-wide (api/run-wide.ts): the first one is what stopped the run. */
  stop(err: unknown): void;
  /** Every part some resource needed (whose `verify` is then awaited). */
  partsRead: Set<DocumentPart>;
  inspect?: Inspect;
}

/**
 * Loads the parts of `names` the document lacks; undefined (nothing to wait for) when it has
 * them all, or when each missing one is known without waiting (its shared read has settled).
 */
function loadParts(ctx: JudgeContext, kind: ResourceKind, r: CollectedResource, names: string[]): Promise<void> | undefined {
  // Made only when a part has to be waited for: most calls find every part in place.
  let missing: string[] | undefined;
  for (const name of names) {
    ctx.partsRead.add(kind.parts[name]);
    if (Object.hasOwn(r.doc, name)) continue;
    const known = kind.parts[name].loaded?.(r, ctx.memo.once);
    if (known) r.doc[name] = known.value;
    else if (missing) missing.push(name);
    else missing = [name];
  }
  if (missing === undefined) return undefined;
  return (async () => {
    for (const name of missing) {
      r.doc[name] = await ctx.partMemo(r, name, () => kind.parts[name].load(ctx.api, r, ctx.memo.once));
    }
  })();
}

/** A policy with the parts of its kind its selection and its judgement read (worked out once per run). */
export interface PolicyPlan {
  policy: CompiledPolicy;
  select: string[];
  judge: string[];
  /** The policy's parameters and the run's clock, the same for every resource. */
  env: EvalEnv;
}

/**
 * One policy on one resource: parts its selection reads, the selection, parts its judgement
 * reads (only when something was selected), the judgement. Synchronous where no part is
 * missing, so a resource whose parts are loaded costs no promise.
 */
function judgeResource(ctx: JudgeContext, kind: ResourceKind, plan: PolicyPlan, r: CollectedResource): ResourceVerdict | Promise<ResourceVerdict> {
  const inspect = ctx.inspect;
  if (inspect && !r.loadError && r.id === inspect.resource && plan.policy.id === inspect.policy) {
    // Every part either expression reads, loaded before the document is handed over.
    const all = [...new Set([...plan.select, ...plan.judge])];
    const found = () => inspect.found(r.doc);
    const loading = loadParts(ctx, kind, r, all);
    if (loading) return loading.then(found, () => undefined).then(() => judgeResource({ ...ctx, inspect: undefined }, kind, plan, r));
    found();
  }
  if (r.loadError) {
    ctx.stop(r.loadError);
    return { selected: 0, findings: [errorFinding(plan.policy.def, r.kind, r, `could not read ${r.kind} ${r.id}: ${errorText(r.loadError)}`, null, null, r.loadError)] };
  }
  const loading = loadParts(ctx, kind, r, plan.select);
  if (!loading) return afterSelectParts(ctx, kind, plan, r);
  return loading.then(
    () => afterSelectParts(ctx, kind, plan, r),
    (err: unknown) => partFailure(ctx, plan, r, err),
  );
}

function afterSelectParts(ctx: JudgeContext, kind: ResourceKind, plan: PolicyPlan, r: CollectedResource): ResourceVerdict | Promise<ResourceVerdict> {
  let selection: readonly Selection[];
  try {
    selection = selectItems(plan.policy, r.doc, plan.env);
  } catch (err) {
    return evaluationFailure(plan, r, err);
  }
  if (selection.length === 0) return passed(0);
  const loading = loadParts(ctx, kind, r, plan.judge);
  if (!loading) return judged(plan, r, selection);
  return loading.then(
    () => judged(plan, r, selection),
    (err: unknown) => partFailure(ctx, plan, r, err),
  );
}

/** The verdict on what was selected, its parts loaded. */
function judged(plan: PolicyPlan, r: CollectedResource, selection: readonly Selection[]): ResourceVerdict {
  try {
    const findings = findingsOf(plan.policy, r, selection, plan.env);
    return findings ? { selected: selection.length, findings } : passed(selection.length);
  } catch (err) {
    return evaluationFailure(plan, r, err);
  }
}

/**
 * The verdicts without findings, one object per selected count: a run keeps a verdict per policy
 * per resource until the kind is judged, and 300,000 fresh `{ selected, findings: [] }` cost ~25 MB.
 */
const PASSED: readonly ResourceVerdict[] = Array.from({ length: 16 }, (_, selected) => Object.freeze({ selected, findings: Object.freeze([]) as unknown as Finding[] }));
const passed = (selected: number): ResourceVerdict => PASSED[selected] ?? { selected, findings: [] };

/** A part could not be read: once per policy when the read is shared by all resources. */
function partFailure(ctx: JudgeContext, plan: PolicyPlan, r: CollectedResource, err: unknown): ResourceVerdict {
  if (ctx.memo.isShared(err)) return { selected: 0, findings: [], sharedError: err };
  ctx.stop(err);
  return { selected: 0, findings: [errorFinding(plan.policy.def, r.kind, r, `could not read ${r.kind} ${r.id}: ${errorText(err)}`, null, null, err)] };
}

function evaluationFailure(plan: PolicyPlan, r: CollectedResource, err: unknown): ResourceVerdict {
  return { selected: 0, findings: [errorFinding(plan.policy.def, r.kind, r, `could not evaluate: ${errorText(err)}`)] };
}

/** The findings of what was selected; null when every selection passes (nothing is allocated). */
function findingsOf(policy: CompiledPolicy, r: CollectedResource, selection: readonly Selection[], env: EvalEnv): Finding[] | null {
  const failed = failedItems(policy, r.doc, selection, env);
  return failed?.map((o) => (o.error ? errorFinding(policy.def, r.kind, r, `could not evaluate: ${o.error}`, o.path, o.itemKey) : violationFinding(policy.def, r, o))) ?? null;
}

/**
 * Every policy of the kind on one resource (from policy `from` on), one after another so they
 * share its loaded parts, each verdict written at `at + p`. Synchronous while no part has to be
 * waited for: after the first resource, a join part whose shared read has settled (the
 * misconfigured list) costs no promise. True when some verdict has a finding.
 */
export function judgeRow(ctx: JudgeContext, kind: ResourceKind, plans: PolicyPlan[], r: CollectedResource, out: Column<ResourceVerdict>, at: number, from = 0, found = false): boolean | Promise<boolean> {
  let any = found;
  for (let p = from; p < plans.length; p++) {
    const verdict = judgeResource(ctx, kind, plans[p], r);
    if (verdict instanceof Promise) {
      return verdict.then((v) => {
        out.set(at + p, v);
        return judgeRow(ctx, kind, plans, r, out, at, p + 1, any || v.findings.length > 0);
      });
    }
    out.set(at + p, verdict);
    any ||= verdict.findings.length > 0;
  }
  return any;
}

/** A verdict that counts its resource as judged: something selected, or found on it. */
export const judgedOn = (v: ResourceVerdict): boolean => v.selected > 0 || v.findings.length > 0;

