// Which top-level fields of `resource` an expression reads, so the engine loads a document
// part that needs its own request (a dataset's `access`, its `certification`) only when some
// policy reads it. Conservative: any use of `resource` other than `resource.field`,
// `has(resource.field)` or `resource['field']` counts as reading everything.
import { type Expr, freeIdent, walk } from './ast.js';

export interface ReadSet {
  /** true: the expression may read any field. */
  all: boolean;
  /** Top-level fields read, sorted. */
  fields: string[];
}

export const READS_NOTHING: ReadSet = { all: false, fields: [] };

export function readsOf(ast: Expr): ReadSet {
  const fields = new Set<string>();
  let all = false;
  walk(ast, (v) => {
    if (freeIdent(v) !== 'resource') return;
    const field = fieldReadBy(v.parent, v.expr);
    if (field === null) all = true;
    else fields.add(field);
  });
  return { all, fields: all ? [] : [...fields].sort() };
}

/** The field `parent` takes from `resource`, or null when it uses `resource` another way. */
function fieldReadBy(parent: Expr | null, resource: Expr): string | null {
  const k = parent?.exprKind;
  if (k?.case === 'selectExpr' && k.value.operand === resource) return k.value.field;
  if (k?.case === 'callExpr' && k.value.function === '_[_]' && k.value.args[0] === resource) {
    const key = k.value.args[1]?.exprKind;
    if (key?.case === 'constExpr' && key.value.constantKind.case === 'stringValue') return key.value.constantKind.value;
  }
  return null;
}

export function unionReads(...sets: ReadSet[]): ReadSet {
  if (sets.some((s) => s.all)) return { all: true, fields: [] };
  return { all: false, fields: [...new Set(sets.flatMap((s) => s.fields))].sort() };
}

/** Whether a read set touches `field` (a document part's name). */
export function readsField(set: ReadSet, field: string): boolean {
  return set.all || set.fields.includes(field);
}
