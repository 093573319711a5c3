// The one compiler of policies: a loaded definition → its compiled form, every expression
// compiled and type-checked (against the kind's document schema when the kinds are given) once,
// with the effective parameters and which resource fields selecting and judging read (so the
// engine loads parts only when needed). The loader only parses and validates.
import { addProblems, InputError } from '../core/problem.js';
import type { SourceLocation } from '../core/model.js';
import { type CompiledExpression, compileExpression, ExpressionError, type ExpressionOrigin } from './cel.js';
import { selectPath } from './ast.js';
import { sortProblems } from './problems.js';
import { READS_NOTHING, type ReadSet, readsOf, unionReads } from './reads.js';
import type { KindRegistry } from './schema.js';
import { type CompiledTemplate, compileTemplate } from './template.js';
import { type ClosedValues, strayWords, valueList } from './closed-words.js';
import { itemTypeOf, type TypeContext } from './typecheck.js';
import type { ExpressionField, PolicyDefinition } from './types.js';
import type { InputProblem } from '../core/problem.js';

/** The variables each expression of a policy may use: `each` sees no item; the rest see it when there is an `each`. */
export function policyVariables(field: ExpressionField, hasEach: boolean): readonly string[] {
  return field === 'each' || !hasEach ? ['resource', 'params', 'now'] : ['resource', 'item', 'params', 'now'];
}

export interface CompilePolicyOptions {
  /** The kinds: `resource` (and `item` from `each`) typed by the kind's document schema. */
  kinds?: KindRegistry;
}

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
  /** Each parameter compared with a closed vocabulary, with its values: an override holding another word is bad input. */
  paramWords: ReadonlyMap<string, ClosedValues>;
  reads: { select: ReadSet; judge: ReadSet };
  /** Likely mistakes its expressions still compile with (a field the kind does not declare, close to one it does). */
  warnings: InputProblem[];
}

/** Compiles `def` (InputError with every problem at its file:line:column when it does not). */
export function compilePolicy(def: PolicyDefinition, options: CompilePolicyOptions = {}): CompiledPolicy {
  const paramNames = Object.keys(def.params);
  const origin = (field: ExpressionField): ExpressionOrigin => def.expressionOrigins?.[field] ?? def.fieldLocations[field] ?? def.location;
  const hasEach = def.each !== undefined;
  // Types known statically: the kind's document, the parameters' defaults, then `item` from `each`.
  const kinds = options.kinds;
  const typing: TypeContext | undefined = kinds
    ? { kind: def.resource, resource: Object.hasOwn(kinds, def.resource) ? kinds[def.resource].documentSchema : undefined, params: def.params, paramWords: new Map() }
    : undefined;
  const expression = (field: 'each' | 'when' | 'assert', source: string) =>
    compileExpression(source, origin(field), { variables: policyVariables(field, hasEach), params: paramNames, expect: field === 'each' ? 'list' : 'bool', typing });
  const problems: InputProblem[] = [];
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      addProblems(problems, e.problems);
      return undefined;
    }
  };
  const each = def.each === undefined ? undefined : attempt(() => expression('each', def.each!));
  if (typing && each) typing.item = itemTypeOf(each.ast, typing);
  const when = def.when === undefined ? undefined : attempt(() => expression('when', def.when!));
  const assert = attempt(() => expression('assert', def.assert));
  const message = attempt(() => compileTemplate(def.message, origin('message'), { variables: policyVariables('message', hasEach), params: paramNames, typing }));
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
    params: { ...def.params },
    paramWords: typing?.paramWords ?? new Map(),
    warnings: sortProblems([each, when, assert, ...message.expressions].flatMap((e) => e?.warnings ?? [])),
    reads: {
      select: unionReads(each ? readsOf(each.ast) : READS_NOTHING, when ? readsOf(when.ast) : READS_NOTHING),
      judge: unionReads(readsOf(assert.ast), ...message.expressions.map((e) => readsOf(e.ast))),
    },
  };
}

/**
 * Every definition compiled once (one InputError later, with all their problems and those of
 * the files, sorted by position): what loading a policy set means to every caller.
 */
export function compileAll(defs: readonly PolicyDefinition[], kinds: KindRegistry, fileProblems: readonly InputProblem[] = []): CompiledPolicy[] {
  const problems: InputProblem[] = [...fileProblems];
  const compiled: CompiledPolicy[] = [];
  for (const def of defs) {
    try {
      compiled.push(compilePolicy(def, { kinds }));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      addProblems(problems, e.problems);
    }
  }
  if (problems.length > 0) throw new InputError(sortProblems(problems));
  return compiled;
}

/** `policy` with the config's `params.<policy id>` over its defaults (checked at `at`). */
export function withParams(policy: CompiledPolicy, override: Record<string, unknown> | undefined, at?: SourceLocation): CompiledPolicy {
  if (!override) return policy;
  return { ...policy, params: { ...policy.def.params, ...checkOverride(policy, override, at) } };
}

function checkOverride({ def, paramWords }: CompiledPolicy, override: Record<string, unknown>, at?: SourceLocation): Record<string, unknown> {
  const problems: InputProblem[] = [];
  const where = at ?? { file: 'params', line: 0, column: 0 };
  for (const [key, value] of Object.entries(override)) {
    if (!(key in def.params)) {
      const declared = Object.keys(def.params).join(', ') || 'none';
      problems.push({ ...where, message: `params.${def.id}: unknown parameter '${key}' (declared: ${declared})` });
    } else if (jsonType(def.params[key]) !== 'null' && jsonType(value) !== jsonType(def.params[key])) {
      problems.push({ ...where, message: `params.${def.id}.${key}: must be a ${jsonType(def.params[key])} like its default` });
    } else {
      // A word the field it is compared with never holds: the policy would decide nothing.
      const values = paramWords.get(key);
      const stray = values ? strayWords(value, values) : [];
      if (stray.length > 0) {
        problems.push({ ...where, message: `params.${def.id}.${key}: ${stray.map((w) => `'${w}'`).join(', ')} ${stray.length === 1 ? 'is' : 'are'} none of the values the policy compares it with (${valueList(values!)})` });
      }
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  return override;
}

/** The JSON type name of a value: null, list, map, number, string, boolean. */
export function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'map' : typeof v;
}
