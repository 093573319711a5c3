// A loaded policy → its compiled form: expressions planned once, effective parameters, and
// which resource fields selecting and judging read (so the engine loads parts only when needed).
import { InputError } from '../core/problem.js';
import type { SourceLocation } from '../core/model.js';
import { type CompiledExpression, compileExpression, ExpressionError, type ExpressionOrigin } from './cel.js';
import { selectPath } from './ast.js';
import { sortProblems } from './problems.js';
import { READS_NOTHING, type ReadSet, readsOf, unionReads } from './reads.js';
import { type CompiledTemplate, compileTemplate } from './template.js';
import { COMPILED, type PolicyDefinition } from './types.js';
import type { InputProblem } from '../core/problem.js';

export interface CompiledPolicy {
  def: PolicyDefinition;
  id: string;
  each?: CompiledExpression;
  /** `resource.permissions` → 'permissions': the document path items come from; null for other `each`. */
  eachPath: string | null;
  when?: CompiledExpression;
  assert: CompiledExpression;
  message: CompiledTemplate;
  /** The policy's defaults merged with the config's overrides. */
  params: Record<string, unknown>;
  reads: { select: ReadSet; judge: ReadSet };
}

/**
 * `override` comes from the config's `params.<policy id>`; `overrideAt` is where that stands,
 * for problems (unknown key, value of another type than the default).
 */
export function compilePolicy(
  def: PolicyDefinition,
  override?: Record<string, unknown>,
  overrideAt?: SourceLocation,
): CompiledPolicy {
  const params = { ...def.params, ...checkOverride(def, override ?? {}, overrideAt) };
  const paramNames = Object.keys(def.params);
  const origin = (field: string): ExpressionOrigin => def.fieldLocations[field] ?? def.location;
  const base = ['resource', 'params', 'now'];
  const inner = def.each !== undefined ? ['resource', 'item', 'params', 'now'] : base;
  const compiled = def[COMPILED];
  // Reused only for the same source: a definition copied with a changed expression compiles anew.
  const pre = <T extends { source: string }>(field: 'each' | 'when' | 'assert' | 'message', source: string | undefined): T | undefined => {
    const x = compiled?.[field] as T | undefined;
    return x && x.source === source ? x : undefined;
  };
  const problems: InputProblem[] = [];
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      problems.push(...e.problems);
      return undefined;
    }
  };
  // The loader's compiled (and type-checked) expressions when it kept them: compiled once a run.
  const each =
    def.each === undefined
      ? undefined
      : (pre<CompiledExpression>('each', def.each) ?? attempt(() => compileExpression(def.each!, origin('each'), { variables: base, params: paramNames, expect: 'list' })));
  const when =
    def.when === undefined
      ? undefined
      : (pre<CompiledExpression>('when', def.when) ?? attempt(() => compileExpression(def.when!, origin('when'), { variables: inner, params: paramNames, expect: 'bool' })));
  const assert =
    pre<CompiledExpression>('assert', def.assert) ?? attempt(() => compileExpression(def.assert, origin('assert'), { variables: inner, params: paramNames, expect: 'bool' }));
  const message = pre<CompiledTemplate>('message', def.message) ?? attempt(() => compileTemplate(def.message, origin('message'), { variables: inner, params: paramNames }));
  if (problems.length > 0 || !assert || !message) throw new InputError(sortProblems(problems));

  const eachPath = each ? selectPath(each.ast, 'resource') : null;
  return {
    def,
    id: def.id,
    ...(each ? { each } : {}),
    eachPath: eachPath && eachPath.length > 0 ? eachPath.join('.') : null,
    ...(when ? { when } : {}),
    assert,
    message,
    params,
    reads: {
      select: unionReads(each ? readsOf(each.ast) : READS_NOTHING, when ? readsOf(when.ast) : READS_NOTHING),
      judge: unionReads(readsOf(assert.ast), ...message.expressions.map((e) => readsOf(e.ast))),
    },
  };
}

function checkOverride(def: PolicyDefinition, override: Record<string, unknown>, at?: SourceLocation): Record<string, unknown> {
  const problems: InputProblem[] = [];
  const where = at ?? { file: 'params', line: 0, column: 0 };
  for (const [key, value] of Object.entries(override)) {
    if (!(key in def.params)) {
      const declared = Object.keys(def.params).join(', ') || 'none';
      problems.push({ ...where, message: `params.${def.id}: unknown parameter '${key}' (declared: ${declared})` });
    } else if (jsonType(def.params[key]) !== 'null' && jsonType(value) !== jsonType(def.params[key])) {
      problems.push({ ...where, message: `params.${def.id}.${key}: must be a ${jsonType(def.params[key])} like its default` });
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return override;
}

/** The JSON type name of a value: null, list, map, number, string, boolean. */
export function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'map' : typeof v;
}
