// Bounds on what one expression may cost. CEL without comprehensions is linear in its source;
// every super-linear cost comes from comprehensions (`all`, `exists`, `map`, `filter`, …) nested
// over lists. So the load-time estimate is their nesting depth, and the run-time budget counts
// loop iterations: each comprehension's loop condition is wrapped in a counting call before
// the expression is planned.
import type { Expr } from './ast.js';
import { walk } from './ast.js';

/** Comprehensions nested deeper than this are refused at load (cost = product of list sizes). */
export const MAX_COMPREHENSION_NESTING = 3;
/** Loop iterations one evaluation of one expression may take. */
export const EVALUATION_STEPS_PER_EXPRESSION = 100_000;
/** Loop iterations all expressions of one policy may take on one resource (per phase). */
export const EVALUATION_STEPS_PER_RESOURCE = 1_000_000;

/** Shared by the evaluations of one policy on one resource. */
export interface StepBudget {
  remaining: number;
}

export function resourceBudget(): StepBudget {
  return { remaining: EVALUATION_STEPS_PER_RESOURCE };
}

interface Meter {
  expression: number;
  resource?: StepBudget;
  exceeded?: string;
}

// Evaluation is synchronous, so the meter of the one running evaluation can live here.
let active: Meter | undefined;

/** A name the CEL parser cannot produce, so no policy can call or shadow it. */
export const STEP = '@steward_step';

/** Counts one loop iteration against the running evaluation's budgets; throws once over. */
export function countStep(): void {
  if (!active) return;
  if (--active.expression < 0) {
    active.exceeded ??= `evaluation budget exceeded: more than ${EVALUATION_STEPS_PER_EXPRESSION} loop iterations in one expression`;
  } else if (active.resource && --active.resource.remaining < 0) {
    active.exceeded ??= `evaluation budget exceeded: more than ${EVALUATION_STEPS_PER_RESOURCE} loop iterations on one resource`;
  }
  // Once over, every loop stops at its next iteration; the error itself may be absorbed by
  // `||`/`&&`, which is why the caller checks `exceeded` rather than the result.
  if (active.exceeded) throw new Error(active.exceeded);
}

/**
 * Runs `fn` (one evaluation) under a fresh expression budget and the given resource budget.
 * Returns its result, or the reason the budget ran out, whatever the result was, and also when
 * `fn` threw because of it; any other throw passes through.
 */
export function metered<T>(fn: () => T, resource?: StepBudget): { value: T } | { exceeded: string } {
  const outer = active;
  const meter: Meter = { expression: EVALUATION_STEPS_PER_EXPRESSION, ...(resource ? { resource } : {}) };
  active = meter;
  try {
    const value = fn();
    return meter.exceeded ? { exceeded: meter.exceeded } : { value };
  } catch (err) {
    if (meter.exceeded) return { exceeded: meter.exceeded };
    throw err;
  } finally {
    active = outer;
  }
}

/** A copy of `ast` whose comprehension loop conditions count iterations (for planning only). */
export function instrument(ast: Expr): Expr {
  let nextId = maxId(ast) + 1n;
  const copy = (e: Expr): Expr => {
    const out = cloneNode(e, copy);
    const k = out.exprKind;
    if (k.case === 'comprehensionExpr' && k.value.loopCondition) {
      const condition = k.value.loopCondition;
      k.value.loopCondition = {
        ...condition,
        id: nextId++,
        exprKind: { case: 'callExpr', value: { $typeName: 'cel.expr.Expr.Call', function: STEP, args: [condition] } },
      } as Expr;
    }
    return out;
  };
  return copy(ast);
}

/** Where comprehensions nest deeper than MAX_COMPREHENSION_NESTING (the first too-deep one). */
export function nestingProblems(ast: Expr): { expr: Expr; message: string }[] {
  // Depth = enclosing loop bodies; a range or a result runs once, so it adds nothing.
  const depth = new Map<Expr, number>();
  let found: { expr: Expr; message: string } | undefined;
  walk(ast, ({ expr, parent }) => {
    let here = parent ? (depth.get(parent) ?? 0) : 0;
    const p = parent?.exprKind;
    if (p?.case === 'comprehensionExpr' && (expr === p.value.loopStep || expr === p.value.loopCondition)) here++;
    depth.set(expr, here);
    if (!found && expr.exprKind.case === 'comprehensionExpr' && here + 1 > MAX_COMPREHENSION_NESTING) {
      found = {
        expr,
        message: `comprehensions nested ${here + 1} deep (at most ${MAX_COMPREHENSION_NESTING}): the cost is the product of the list sizes; split the check`,
      };
    }
  });
  return found ? [found] : [];
}

function maxId(ast: Expr): bigint {
  let max = 0n;
  walk(ast, ({ expr }) => {
    if (expr.id > max) max = expr.id;
  });
  return max;
}

/** A deep copy of one node: nested messages copied, Expr children through `child`. */
function cloneNode(e: Expr, child: (e: Expr) => Expr): Expr {
  const deep = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(deep);
    if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return v;
    if ((v as { $typeName?: string }).$typeName === 'cel.expr.Expr') return child(v as Expr);
    return Object.fromEntries(Object.entries(v).map(([key, value]) => [key, deep(value)]));
  };
  return Object.fromEntries(Object.entries(e).map(([key, value]) => [key, deep(value)])) as Expr;
}
