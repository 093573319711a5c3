// `steward explain`: a policy's expressions on one resource, node by node: each sub-expression
// with no loop variable in it and its value (by the reference evaluator), nested as written; for
// a comparison or `in` that came out false, the value that would have passed; for an `exists` or
// `all` that did not hold, how many elements there were (conftest --trace, OPA explain).
import { type Expr, walk } from './ast.js';
import { type Bindings, type CompiledExpression, explainNode } from './cel.js';
import type { CompiledPolicy } from './compile.js';

export interface ExplainedNode {
  /** Nesting among the nodes shown (0: the whole expression). */
  depth: number;
  text: string;
  value?: unknown;
  error?: string;
  /** For a false comparison, `in`, `exists` or `all`: what would have passed. */
  hint?: string;
}

export interface ExplainedExpression {
  field: 'each' | 'when' | 'assert';
  source: string;
  nodes: ExplainedNode[];
}

const COMPARISONS: Record<string, string> = { '_==_': '==', '_!=_': '!=', '_<_': '<', '_<=_': '<=', '_>_': '>', '_>=_': '>=', '@in': 'in' };

const show = (v: unknown) => JSON.stringify(v) ?? 'undefined';

const NEGATED: Record<string, string> = { '==': '!=', '!=': '==', '<': '>=', '<=': '>', '>': '<=', '>=': '<', in: 'not in' };

/** What would have made a comparison come out as `wanted`, from its operands' values. */
function comparisonHint(op: string, wanted: boolean, left: ExplainedNode, right: ExplainedNode): string | undefined {
  if (!('value' in left) || !('value' in right)) return undefined;
  const l = show(left.value);
  const r = show(right.value);
  const need = wanted ? op : NEGATED[op];
  switch (need) {
    case '==':
      return `passes when ${left.text} is ${r} (it is ${l})`;
    case '!=':
      return `passes when ${left.text} is anything but ${r}`;
    case 'in':
      return `passes when ${right.text} holds ${l}${Array.isArray(right.value) ? ` (it holds ${right.value.length === 0 ? 'nothing' : right.value.map(show).join(', ')})` : ''}`;
    case 'not in':
      return `passes when ${right.text} does not hold ${l}`;
    default:
      return `passes when ${left.text} ${need} ${r} (it is ${l})`;
  }
}

/** Every free-standing node of `expression`, evaluated with `bindings`, parents first. */
export function explainExpression(field: ExplainedExpression['field'], expression: CompiledExpression, bindings: Bindings): ExplainedExpression {
  const nodes = new Map<Expr, ExplainedNode>();
  const depth = new Map<Expr, number>();
  const order: Expr[] = [];
  const parentOf = new Map<Expr, Expr | null>();
  walk(expression.ast, (v) => {
    parentOf.set(v.expr, v.parent);
    const k = v.expr.exprKind;
    // Loop bodies need their loop variable; literals and bare variables say nothing new.
    if (v.locals.size > 0 || k.case === 'constExpr' || k.case === 'identExpr' || k.case === undefined) return;
    let up = v.parent;
    while (up && !depth.has(up)) up = parentOf.get(up) ?? null;
    depth.set(v.expr, up ? depth.get(up)! + 1 : 0);
    order.push(v.expr);
    const node: ExplainedNode = { depth: depth.get(v.expr)!, ...explainNode(expression.source, v.expr, bindings) };
    nodes.set(v.expr, node);
  });
  // Hints only where an `assert` failed, on the nodes that made it fail: what each must be for
  // the whole to be true follows `!` (flips), `&&` and `||` (kept) down from the root.
  const root = order[0] ? nodes.get(order[0]) : undefined;
  const wanted = new Map<Expr, boolean>();
  if (field === 'assert' && root?.value === false) wanted.set(expression.ast, true);
  for (const expr of order) {
    const want = wanted.get(expr);
    const k = expr.exprKind;
    if (want === undefined || k.case !== 'callExpr') continue;
    const fn = k.value.function;
    if (fn === '!_') for (const a of k.value.args) wanted.set(a, !want);
    if (fn === '_&&_' || fn === '_||_') for (const a of k.value.args) wanted.set(a, want);
  }
  for (const expr of order) {
    const node = nodes.get(expr)!;
    const k = expr.exprKind;
    const want = wanted.get(expr);
    if (want === undefined || node.value === want || typeof node.value !== 'boolean') continue;
    if (k.case === 'callExpr' && COMPARISONS[k.value.function] && k.value.args.length === 2) {
      const [a, b] = k.value.args.map((arg) => nodes.get(arg) ?? { depth: 0, ...explainNode(expression.source, arg, bindings) });
      node.hint = comparisonHint(COMPARISONS[k.value.function], want, a, b);
    } else if (k.case === 'comprehensionExpr' && want) {
      const range = k.value.iterRange ? nodes.get(k.value.iterRange) : undefined;
      const n = Array.isArray(range?.value) ? range.value.length : null;
      const macro = /\.(exists_one|exists|all)\(/.exec(node.text)?.[1];
      if (macro === 'exists') node.hint = n === 0 ? `passes when ${range?.text} has an element that satisfies it (it is empty)` : `passes when one of the ${n} elements of ${range?.text} satisfies it (none does)`;
      if (macro === 'all') node.hint = `passes when every element of ${range?.text} satisfies it (not all ${n} do)`;
    }
  }
  return { field, source: expression.source, nodes: order.map((e) => nodes.get(e)!) };
}

/**
 * `when` and `assert` on one resource, or on one item of it (`bindings.item`), as the engine runs
 * them: `assert` only when `when` held (else it was never evaluated, and is not here).
 */
export function explainJudgement(policy: CompiledPolicy, bindings: Bindings): ExplainedExpression[] {
  const out: ExplainedExpression[] = [];
  if (policy.when) {
    const when = explainExpression('when', policy.when, bindings);
    out.push(when);
    if (when.nodes[0]?.value !== true) return out;
  }
  out.push(explainExpression('assert', policy.assert, bindings));
  return out;
}
