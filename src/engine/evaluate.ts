// Pure evaluation of one compiled policy on one resource document (no HTTP). Selecting
// (`each` + `when`) and judging (`assert` + `message`) are separate steps because the engine
// loads document parts the judge reads only for what was selected. A CEL error is an
// outcome with `error`, never a pass.
import type { Bindings } from '../policy/cel.js';
import type { CompiledPolicy } from '../policy/compile.js';
import { resourceBudget } from '../policy/cost.js';

export interface EvalEnv {
  /** Effective parameters; default: the compiled policy's. */
  params?: Record<string, unknown>;
  now: Date;
}

export interface Selection {
  /** `permissions[1]` for an item of an `each` policy; null for the whole resource. */
  path: string | null;
  /** The item's `id`, else its `entityId`, else its index; null for the whole resource. */
  itemKey: string | null;
  /** Present for `each` policies. */
  item?: unknown;
  /** Selecting failed (`each` or `when` errored): judged as an error outcome. */
  error?: string;
}

export interface Outcome {
  path: string | null;
  itemKey: string | null;
  passed: boolean;
  /** The rendered message, for violations (the title plus the reason when rendering failed). */
  message?: string;
  /** Why the message could not be rendered (the violation stands; `steward test` fails on it). */
  messageError?: string;
  /** What the finding's fingerprint hashes: the item, or the resource fields the check reads. */
  offendingValue: unknown;
  error?: string;
}

/**
 * The whole resource, selected: one shared, frozen selection. A run selects every resource with
 * every policy, and a fresh array and object per pair outlived young-generation collections in
 * numbers large enough for V8 to allocate them straight into the old one (BENCHMARKS.md §11).
 */
const WHOLE: readonly Selection[] = Object.freeze([Object.freeze({ path: null, itemKey: null })]);
const NONE: readonly Selection[] = Object.freeze([]);

/** The variables every expression of the policy sees on this resource (`item` is added per item). */
const bindingsOf = (policy: CompiledPolicy, doc: Record<string, unknown>, env: EvalEnv): Bindings => ({ resource: doc, params: env.params ?? policy.params, now: env.now });

export function selectItems(policy: CompiledPolicy, doc: Record<string, unknown>, env: EvalEnv): readonly Selection[] {
  if (!policy.each) {
    // Without each and when the whole resource is selected: nothing to bind or evaluate.
    if (!policy.when) return WHOLE;
    let held: boolean;
    try {
      held = asBool(policy.when.evaluate(bindingsOf(policy, doc, env), resourceBudget()), 'when');
    } catch (e) {
      return [{ path: null, itemKey: null, error: failure(policy, 'when', e) }];
    }
    return held ? WHOLE : NONE;
  }
  const base = bindingsOf(policy, doc, env);
  const budget = resourceBudget();
  const items = check(policy, 'each', () => {
    const v = policy.each!.evaluate(base, budget);
    if (!Array.isArray(v)) throw new Error(`must evaluate to a list, got ${typeName(v)}`);
    return v;
  });
  if ('error' in items) return [{ path: null, itemKey: null, error: items.error }];
  const selected: Selection[] = [];
  for (const [index, item] of items.ok.entries()) {
    const sel: Selection = { path: `${policy.eachPath ?? 'each'}[${index}]`, itemKey: keyOf(item, index), item };
    if (!policy.when) {
      selected.push(sel);
      continue;
    }
    const held = check(policy, 'when', () => asBool(policy.when!.evaluate({ ...base, item }, budget), 'when'));
    if ('error' in held) selected.push({ ...sel, error: held.error });
    else if (held.ok) selected.push(sel);
  }
  return selected;
}

export function judgeItems(
  policy: CompiledPolicy,
  doc: Record<string, unknown>,
  selection: readonly Selection[],
  env: EvalEnv,
): Outcome[] {
  const base = bindingsOf(policy, doc, env);
  const budget = resourceBudget();
  // Most outcomes pass and become no finding: their projection is built only if asked for.
  return selection.map((sel): Outcome => judgeItem(policy, doc, sel, base, budget) ?? passedOutcome(policy, doc, sel));
}

/** The outcomes that are not a pass (violations and errors), or null when every one passes (nothing is allocated). */
export function failedItems(
  policy: CompiledPolicy,
  doc: Record<string, unknown>,
  selection: readonly Selection[],
  env: EvalEnv,
): Outcome[] | null {
  const base = bindingsOf(policy, doc, env);
  const budget = resourceBudget();
  let failed: Outcome[] | null = null;
  for (const sel of selection) {
    const outcome = judgeItem(policy, doc, sel, base, budget);
    if (!outcome) continue;
    failed ??= [];
    failed.push(outcome);
  }
  return failed;
}

const offendingOf = (policy: CompiledPolicy, doc: Record<string, unknown>, sel: Selection) => ('item' in sel ? sel.item : projection(policy, doc));

function passedOutcome(policy: CompiledPolicy, doc: Record<string, unknown>, sel: Selection): Outcome {
  return {
    path: sel.path,
    itemKey: sel.itemKey,
    passed: true,
    get offendingValue() {
      return offendingOf(policy, doc, sel);
    },
  };
}

/** One selection judged: null when it passes, else the violation or the error. */
function judgeItem(policy: CompiledPolicy, doc: Record<string, unknown>, sel: Selection, base: Bindings, budget: ReturnType<typeof resourceBudget>): Outcome | null {
  if (sel.error !== undefined) return { path: sel.path, itemKey: sel.itemKey, offendingValue: offendingOf(policy, doc, sel), passed: false, error: sel.error };
  const bindings = 'item' in sel ? { ...base, item: sel.item } : base;
  let error: string | undefined;
  try {
    if (asBool(policy.assert.evaluate(bindings, budget), 'assert')) return null;
  } catch (e) {
    error = failure(policy, 'assert', e);
  }
  const head = { path: sel.path, itemKey: sel.itemKey, offendingValue: offendingOf(policy, doc, sel) };
  if (error !== undefined) return { ...head, passed: false, error };
  const message = check(policy, 'message', () => policy.message.render(bindings, budget));
  // The violation is certain even when its text is not: keep it a violation, say why.
  if ('error' in message) return { ...head, passed: false, message: `${policy.def.title} (${message.error})`, messageError: message.error };
  return { ...head, passed: false, message: message.ok };
}

/** Selects and judges in one step (tests, snapshots: documents already complete). */
export function evaluateDocument(policy: CompiledPolicy, doc: Record<string, unknown>, env: EvalEnv): Outcome[] {
  return judgeItems(policy, doc, selectItems(policy, doc, env), env);
}

/** The error text of a failed expression, naming the policy and the field. */
const failure = (policy: CompiledPolicy, field: string, e: unknown) => `policy ${policy.id}: ${field}: ${(e as Error).message}`;

/** Runs `fn`; a failure becomes the error text naming the policy and the field. */
function check<T>(policy: CompiledPolicy, field: string, fn: () => T): { ok: T } | { error: string } {
  try {
    return { ok: fn() };
  } catch (e) {
    return { error: failure(policy, field, e) };
  }
}

function asBool(v: unknown, field: string): boolean {
  if (typeof v !== 'boolean') throw new Error(`${field} must evaluate to a bool, got ${typeName(v)}`);
  return v;
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'map' : typeof v;
}

function keyOf(item: unknown, index: number): string {
  if (item !== null && typeof item === 'object') {
    const o = item as Record<string, unknown>;
    for (const k of ['id', 'entityId']) {
      if (typeof o[k] === 'string' || typeof o[k] === 'number') return String(o[k]);
    }
  }
  return String(index);
}

/** The resource fields the judge reads (all of it when it reads `resource` as a whole). */
function projection(policy: CompiledPolicy, doc: Record<string, unknown>): unknown {
  const reads = policy.reads.judge;
  if (reads.all) return doc;
  return Object.fromEntries(reads.fields.filter((f) => f in doc).map((f) => [f, doc[f]]));
}
