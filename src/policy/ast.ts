// Walks a parsed CEL AST (macros already expanded) with comprehension scopes, so the static
// checks (cel.ts) and the reads analysis (reads.ts) see which identifiers are free variables.
import type { parse } from '@bufbuild/cel';

/** A CEL AST node (the type `parse` returns; named here to keep the engine swappable). */
export type Expr = ReturnType<typeof parse>['expr'];

export interface Visit {
  expr: Expr;
  /** The node above, if any. */
  parent: Expr | null;
  /** Comprehension variables in scope at this node. */
  locals: ReadonlySet<string>;
}

/** Calls `visitor` on every node, parents before children. */
export function walk(root: Expr, visitor: (v: Visit) => void): void {
  const go = (expr: Expr | undefined, parent: Expr | null, locals: ReadonlySet<string>): void => {
    if (!expr) return;
    visitor({ expr, parent, locals });
    const k = expr.exprKind;
    switch (k.case) {
      case 'selectExpr':
        go(k.value.operand, expr, locals);
        break;
      case 'callExpr':
        go(k.value.target, expr, locals);
        for (const a of k.value.args) go(a, expr, locals);
        break;
      case 'listExpr':
        for (const e of k.value.elements) go(e, expr, locals);
        break;
      case 'structExpr':
        for (const e of k.value.entries) {
          if (e.keyKind.case === 'mapKey') go(e.keyKind.value, expr, locals);
          go(e.value, expr, locals);
        }
        break;
      case 'comprehensionExpr': {
        const c = k.value;
        go(c.iterRange, expr, locals);
        go(c.accuInit, expr, locals);
        const inner = new Set(locals);
        for (const name of [c.iterVar, c.iterVar2, c.accuVar]) if (name) inner.add(name);
        go(c.loopCondition, expr, inner);
        go(c.loopStep, expr, inner);
        go(c.result, expr, inner);
        break;
      }
      default:
        break;
    }
  };
  go(root, null, new Set());
}

/** The identifier name if `expr` is a free (not comprehension-bound) identifier. */
export function freeIdent(v: Visit): string | null {
  const k = v.expr.exprKind;
  if (k.case !== 'identExpr' || v.locals.has(k.value.name)) return null;
  return k.value.name;
}

/** `resource.a.b` → ['a', 'b'] when `expr` is a chain of field selects on the identifier `root`. */
export function selectPath(expr: Expr, root: string): string[] | null {
  const path: string[] = [];
  let e: Expr | undefined = expr;
  while (e?.exprKind.case === 'selectExpr') {
    path.unshift(e.exprKind.value.field);
    e = e.exprKind.value.operand;
  }
  if (e?.exprKind.case === 'identExpr' && e.exprKind.value.name === root) return path;
  return null;
}
