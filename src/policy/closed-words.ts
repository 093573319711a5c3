// Words a field never holds. A kind's document schema lists a field's values (`enum`) only for
// closed vocabularies: words the API has no others of (any other is drift, exit 3: api/
// vocabularies.ts) or that steward computes itself (a user's state). A word compared with such a
// field that is none of them decides the comparison before anything is read: a policy that
// selects nothing, or fails nothing, in silence (typecheck.ts, and compile.ts for the config's
// parameter overrides).
import type { Expr } from './ast.js';
import type { CelType } from './schema-types.js';
import { didYouMean } from './suggest.js';

export type ClosedValues = readonly (string | null)[];

/** Every value a field takes, when its schema lists them (words and null); null otherwise. */
export function closedValues(t: CelType | undefined): ClosedValues | null {
  const values = t?.schema?.enum;
  return Array.isArray(values) && values.every((v) => typeof v === 'string' || v === null) ? values : null;
}

/** The words of `value` (a word or a list of them) that are none of `values`. */
export function strayWords(value: unknown, values: ClosedValues): string[] {
  return ([] as unknown[]).concat(value).filter((v): v is string => typeof v === 'string' && !values.includes(v));
}

/** `ACTIVE, EXPIRED, null`. */
export const valueList = (values: ClosedValues): string => values.map((v) => v ?? 'null').join(', ');

/**
 * Why `word` (a string constant, or `params.name` with its default's words) can never equal a
 * value of `field`, `outcome` saying what that makes of the comparison; null when it can, or
 * when either is unknown. A parameter compared so is recorded in `paramWords`.
 */
export function strayWordProblem(
  field: CelType | undefined,
  word: Expr,
  outcome: string,
  params: Record<string, unknown> | undefined,
  paramWords: Map<string, ClosedValues> | undefined,
): string | null {
  const values = closedValues(field);
  if (!values) return null;
  const k = word.exprKind;
  const about = (text: string, what: string) => `type error: ${what} none of the values this field takes (${valueList(values)})${didYouMean(text, values.filter((v) => v !== null))}, so ${outcome}`;
  if (k.case === 'selectExpr' && !k.value.testOnly && k.value.operand?.exprKind.case === 'identExpr' && k.value.operand.exprKind.value.name === 'params') {
    const param = k.value.field;
    if (!params || !(param in params)) return null;
    paramWords?.set(param, values);
    const stray = strayWords(params[param], values)[0];
    return stray === undefined ? null : about(stray, `params.${param} holds '${stray}',`);
  }
  if (k.case !== 'constExpr' || k.value.constantKind.case !== 'stringValue' || values.includes(k.value.constantKind.value)) return null;
  const text = k.value.constantKind.value;
  return about(text, `'${text}' is`);
}
