// Static typing of a parsed CEL expression, so mistakes that would silently give a wrong answer
// (`resource.recipientCount != "0"` is never false) or fail on every resource are load errors.
// Types come from literals, operators, functions, the resource kind's document schema and the
// parameters' defaults; anything else is `dyn` and passes (no false positives on data-shaped
// values). Only certain mistakes are reported: a pair of types is rejected only when no
// combination of its possible types works.
import type { Expr } from './ast.js';
import { type CelType, DYN, elemOf, fieldOf, fromSchema, type Kind, of, paramType, type Schema } from './schema-types.js';
import { type ClosedValues, strayWordProblem } from './closed-words.js';
import { didYouMean } from './suggest.js';
import { arithmeticResult, compatible, describe, equalable, NUMERIC, orderable, union, withoutNull } from './type-rules.js';

export type { CelType } from './schema-types.js';

export interface TypeContext {
  /** The resource kind's name, for messages. */
  kind?: string;
  /** The kind's document schema: `resource` is typed by it. */
  resource?: Schema;
  /** Type of `item` (the element type of `each`). */
  item?: CelType;
  /** Parameter defaults: `params.x` has the JSON type of its default. */
  params?: Record<string, unknown>;
  /** Filled by the check: each parameter compared with a closed vocabulary, with its values (overrides are held to them). */
  paramWords?: Map<string, ClosedValues>;
}

export interface TypeProblem {
  /** Offset of the offending text in the expression source. */
  offset: number;
  message: string;
  /** A likely mistake that may still be right (the expression compiles): said, not refused. */
  warning?: true;
}

export interface TypeCheckInput {
  ast: Expr;
  source: string;
  /** Node id → source offset (the parser's source info). */
  positions: Record<string, number>;
  typing?: TypeContext;
  expect?: 'bool' | 'list' | 'text';
  /** Why a constant argument is invalid (`timestamp('nope')`, `x.matches('[')`), or null. */
  constantProblem?: (fn: 'timestamp' | 'duration' | 'matches', value: string) => string | null;
}

const SIZED: ReadonlySet<Kind> = new Set(['string', 'bytes', 'list', 'map']);
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);
const COMPARE: Record<string, string> = { '_==_': '==', '_!=_': '!=', '_<_': '<', '_<=_': '<=', '_>_': '>', '_>=_': '>=' };
const ARITH: Record<string, string> = { '_+_': '+', '_-_': '-', '_*_': '*', '_/_': '/', '_%_': '%' };
const CONVERSIONS: Record<string, Kind> = {
  int: 'int', uint: 'uint', double: 'double', string: 'string', bool: 'bool', bytes: 'bytes',
  timestamp: 'timestamp', duration: 'duration', type: 'type',
};
const STRING_METHODS = new Set(['contains', 'startsWith', 'endsWith', 'matches']);
const TIME_GETTERS = /^get(FullYear|Month|Date|DayOfMonth|DayOfWeek|DayOfYear|Hours|Minutes|Seconds|Milliseconds)$/;

/** Every type problem of the expression, in source order. */
export function typeProblems(input: TypeCheckInput): TypeProblem[] {
  const problems: TypeProblem[] = [];
  const checker = new Checker(input, problems);
  const root = checker.typeOf(input.ast, new Map());
  const { expect } = input;
  if (expect === 'text') {
    // A message segment whose value may be null would print `null` (a live read without names).
    if (root.kinds?.has('null') && root.kinds.size > 1) {
      problems.push({ offset: checker.start(input.ast), message: `type error: may be null, and a message would print 'null': write label(name, id), or x != null ? x : '…'` });
    }
  } else if (expect && root.kinds !== null && !root.kinds.has(expect)) {
    problems.push({ offset: checker.start(input.ast), message: `type error: must be a ${expect} expression, this one yields ${describe(root, true)}` });
  }
  return problems.sort((a, b) => a.offset - b.offset);
}

/** The type of `item` for a policy whose `each` is `ast` (dyn when unknown). */
export function itemTypeOf(ast: Expr, typing: TypeContext | undefined): CelType {
  const t = new Checker({ ast, source: '', positions: {}, typing }, []).typeOf(ast, new Map());
  return elemOf(t);
}

class Checker {
  constructor(
    private readonly input: TypeCheckInput,
    private readonly problems: TypeProblem[],
  ) {}

  /** Offset where the sub-expression starts (the leftmost position in its subtree). */
  start(e: Expr): number {
    let min = this.input.positions[String(e.id)] ?? Number.POSITIVE_INFINITY;
    const visit = (x: Expr | undefined) => {
      if (!x) return;
      min = Math.min(min, this.input.positions[String(x.id)] ?? Number.POSITIVE_INFINITY);
      const k = x.exprKind;
      if (k.case === 'selectExpr') visit(k.value.operand);
      else if (k.case === 'callExpr') [k.value.target, ...k.value.args].forEach(visit);
      else if (k.case === 'listExpr') k.value.elements.forEach(visit);
      else if (k.case === 'comprehensionExpr') visit(k.value.iterRange);
    };
    visit(e);
    return Number.isFinite(min) ? min : 0;
  }

  private report(e: Expr, message: string, offset = this.start(e)): CelType {
    this.problems.push({ offset, message });
    return DYN;
  }

  private warn(offset: number, message: string): void {
    this.problems.push({ offset, message, warning: true });
  }

  typeOf(e: Expr, locals: ReadonlyMap<string, CelType>): CelType {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind;
        const kind = ({ boolValue: 'bool', int64Value: 'int', uint64Value: 'uint', doubleValue: 'double', stringValue: 'string', bytesValue: 'bytes', nullValue: 'null' } as Record<string, Kind>)[c.case ?? ''];
        return kind ? of(kind) : DYN;
      }
      case 'identExpr':
        return this.ident(k.value.name, locals);
      case 'listExpr': {
        const elems = k.value.elements.map((x) => this.typeOf(x, locals));
        return { kinds: new Set(['list']), elem: elems.length > 0 ? union(elems) : DYN };
      }
      case 'structExpr':
        for (const entry of k.value.entries) {
          if (entry.keyKind.case === 'mapKey') this.typeOf(entry.keyKind.value, locals);
          if (entry.value) this.typeOf(entry.value, locals);
        }
        return k.value.messageName ? DYN : of('map');
      case 'selectExpr':
        return this.select(e, k.value.operand!, k.value.field, k.value.testOnly, locals);
      case 'callExpr':
        return this.call(e, k.value.function, k.value.target, k.value.args, locals);
      case 'comprehensionExpr': {
        const c = k.value;
        const range = this.typeOf(c.iterRange!, locals);
        if (range.kinds !== null && !range.kinds.has('list') && !range.kinds.has('map') && !range.kinds.has('null')) {
          return this.report(c.iterRange!, `type error: cannot iterate over ${describe(range)}`);
        }
        const inner = new Map(locals);
        const listOnly = range.kinds?.size === 1 && range.kinds.has('list');
        if (c.iterVar2) {
          inner.set(c.iterVar, listOnly ? of('int') : DYN);
          inner.set(c.iterVar2, listOnly ? elemOf(range) : DYN);
        } else {
          inner.set(c.iterVar, listOnly || range.kinds === null ? elemOf(range) : DYN);
        }
        inner.set(c.accuVar, this.typeOf(c.accuInit!, locals));
        if (c.loopCondition) this.typeOf(c.loopCondition, inner);
        if (c.loopStep) this.typeOf(c.loopStep, inner);
        return c.result ? this.typeOf(c.result, inner) : DYN;
      }
      default:
        return DYN;
    }
  }

  private ident(name: string, locals: ReadonlyMap<string, CelType>): CelType {
    const local = locals.get(name);
    if (local) return local;
    const typing = this.input.typing;
    switch (name) {
      case 'resource':
        return typing?.resource ? fromSchema(typing.resource) : DYN;
      case 'item':
        return typing?.item ?? DYN;
      case 'now':
        return of('timestamp');
      case 'params':
        return typing?.params
          ? { kinds: new Set(['map']), fields: Object.fromEntries(Object.entries(typing.params).map(([p, v]) => [p, paramType(v)])) }
          : DYN;
      default:
        return TYPE_NAMES.has(name) ? of('type') : DYN;
    }
  }

  /** Is `e` the free variable `resource` (not a comprehension variable of that name)? */
  private isResource(e: Expr, locals: ReadonlyMap<string, CelType>): boolean {
    return e.exprKind.case === 'identExpr' && e.exprKind.value.name === 'resource' && !locals.has('resource');
  }

  /**
   * A top-level field the kind's document schema does not declare. Of a closed schema: a load
   * error with a hint. Of an open one (the platform answers more than the kind declares), a name
   * close to a declared field is most likely a misspelling of it, which would fail on every
   * resource at run time, or make `has()` of it false on all: a warning, the expression kept.
   */
  private unknownField(operand: Expr, field: string, locals: ReadonlyMap<string, CelType>, at: Expr): boolean {
    const schema = this.input.typing?.resource;
    if (!schema || !this.isResource(operand, locals)) return false;
    const known = Object.keys((schema.properties as Schema | undefined) ?? {});
    if (known.includes(field)) return false;
    const kind = this.input.typing?.kind ?? 'the resource';
    if (schema.additionalProperties !== false) {
      const near = didYouMean(field, known);
      if (near) this.warn(this.fieldOffset(operand, field, at), `'${field}' is not a field ${kind} declares${near}: every resource without it fails this expression, and has() of it is false`);
      return false;
    }
    const hint = didYouMean(field, known) || ` (fields: ${known.join(', ')})`;
    this.report(at, `unknown field '${field}' of ${kind}${hint}`, this.fieldOffset(operand, field, at));
    return true;
  }

  /** Where the field name itself stands (`has(resource.x)` keeps no position for its select). */
  private fieldOffset(operand: Expr, field: string, at: Expr): number {
    const from = this.start(operand);
    const m = new RegExp(`\\.\\s*(${field.replace(/[^\w]/g, '\\$&')})\\b|\\[\\s*['"](${field.replace(/[^\w]/g, '\\$&')})`).exec(this.input.source.slice(from));
    return m ? from + m.index + m[0].length - field.length : this.start(at);
  }

  private select(e: Expr, operand: Expr, field: string, testOnly: boolean, locals: ReadonlyMap<string, CelType>): CelType {
    const base = this.typeOf(operand, locals);
    if (this.unknownField(operand, field, locals, e)) return testOnly ? of('bool') : DYN;
    if (base.kinds !== null && !base.kinds.has('map') && !base.kinds.has('null')) {
      this.report(e, `type error: cannot select '${field}' from ${describe(base)}`);
      return testOnly ? of('bool') : DYN;
    }
    return testOnly ? of('bool') : fieldOf(base, field);
  }

  private call(e: Expr, fn: string, target: Expr | undefined, rawArgs: Expr[], locals: ReadonlyMap<string, CelType>): CelType {
    const argExprs = target ? [target, ...rawArgs] : rawArgs;
    const args = argExprs.map((a) => this.typeOf(a, locals));
    const [a, b] = args;
    if (fn in COMPARE) {
      const op = COMPARE[fn];
      const ok = op === '==' || op === '!=' ? equalable : orderable;
      if (!compatible(a, b, ok)) this.report(e, `type error: cannot compare ${describe(a)} with ${describe(b)} using '${op}'`);
      if (op === '==' || op === '!=') {
        const outcome = op === '==' ? "'==' is never true" : "'!=' is always true";
        this.noneOfTheValues(a, argExprs[1], outcome);
        this.noneOfTheValues(b, argExprs[0], outcome);
      }
      return of('bool');
    }
    if (fn in ARITH) return this.arithmetic(e, ARITH[fn], a, b);
    switch (fn) {
      case '@in': {
        if (b.kinds !== null && !b.kinds.has('list') && !b.kinds.has('map') && !b.kinds.has('null')) {
          this.report(e, `type error: 'in' needs a list or map on its right, got ${describe(b)}`);
        } else if (b.kinds?.size === 1 && b.kinds.has('list') && !compatible(a, elemOf(b), equalable)) {
          this.report(e, `type error: cannot look for ${describe(a)} in a list of ${describe(elemOf(b))}`);
        }
        const list = argExprs[1]!.exprKind;
        if (list.case === 'listExpr') for (const element of list.value.elements) this.noneOfTheValues(a, element, 'it never matches');
        else this.noneOfTheValues(a, argExprs[1], 'it never matches');
        this.noneOfTheValues(elemOf(b), argExprs[0], "'in' is never true");
        return of('bool');
      }
      case '_&&_':
      case '_||_':
      case '!_':
        for (const [i, x] of argExprs.entries()) this.expectKind(x, args[i], 'bool', `'${fn.replace(/_/g, '')}' needs bool operands`);
        return of('bool');
      case '_?_:_': {
        this.expectKind(argExprs[0], a, 'bool', 'the condition of ?: must be a bool');
        // `x != null ? x : y`: x is not null where it is chosen.
        const guarded = nonNullGuard(argExprs[0]);
        const then = guarded && sameField(guarded, argExprs[1]) ? withoutNull(args[1]) : args[1];
        return union([then, args[2]]);
      }
      case '-_':
        if (a.kinds !== null && !a.kinds.has('duration') && ![...a.kinds].some((x) => NUMERIC.has(x))) {
          return this.report(e, `type error: cannot negate ${describe(a)}`);
        }
        return a;
      case '_[_]':
        return this.index(e, argExprs[0], argExprs[1], a, locals);
      case 'size':
        if (a && a.kinds !== null && ![...a.kinds].some((x) => SIZED.has(x))) {
          this.report(e, `type error: size() of ${describe(a)} (needs a string, bytes, list or map)`);
        }
        return of('int');
      case 'isTimeZone':
        this.expectKind(argExprs[0], a, 'string', 'isTimeZone() needs a string');
        return of('bool');
      case 'label':
        return of('string');
      case 'dyn':
        return DYN;
      default:
        break;
    }
    if (STRING_METHODS.has(fn) && argExprs.length === 2) {
      this.expectKind(argExprs[0], a, 'string', `${fn}() applies to a string`);
      this.expectKind(argExprs[1], b, 'string', `${fn}() needs a string argument`);
      if (fn === 'matches') this.constant(argExprs[1], 'matches');
      return of('bool');
    }
    if (fn === 'timestamp' || fn === 'duration') this.constant(argExprs[0], fn);
    if (fn in CONVERSIONS && argExprs.length === 1) return of(CONVERSIONS[fn]);
    if (TIME_GETTERS.test(fn)) return of('int');
    return DYN;
  }

  private arithmetic(e: Expr, op: string, a: CelType, b: CelType): CelType {
    if (a.kinds === null || b.kinds === null) return DYN;
    const results = new Set<Kind>();
    for (const x of a.kinds) for (const y of b.kinds) for (const r of arithmeticResult(op, x, y)) results.add(r);
    if (results.size === 0) return this.report(e, `type error: no '${op}' for ${describe(a)} and ${describe(b)}`);
    return { kinds: results };
  }

  private index(e: Expr, container: Expr, key: Expr, t: CelType, locals: ReadonlyMap<string, CelType>): CelType {
    const k = key.exprKind;
    const constKey = k.case === 'constExpr' && k.value.constantKind.case === 'stringValue' ? k.value.constantKind.value : null;
    if (constKey !== null && this.unknownField(container, constKey, locals, e)) return DYN;
    if (t.kinds !== null && !t.kinds.has('list') && !t.kinds.has('map') && !t.kinds.has('null')) {
      return this.report(e, `type error: cannot index ${describe(t)}`);
    }
    if (t.kinds?.size === 1 && t.kinds.has('list')) return elemOf(t);
    return constKey !== null && t.kinds?.size === 1 && t.kinds.has('map') ? fieldOf(t, constKey) : DYN;
  }

  private expectKind(e: Expr | undefined, t: CelType | undefined, kind: Kind, what: string): void {
    if (!e || !t || t.kinds === null || t.kinds.has(kind)) return;
    this.report(e, `type error: ${what}, got ${describe(t)}`);
  }

  /** A word compared with a field that never holds it (closed-words.ts). */
  private noneOfTheValues(field: CelType | undefined, word: Expr | undefined, outcome: string): void {
    const why = word && strayWordProblem(field, word, outcome, this.input.typing?.params, this.input.typing?.paramWords);
    if (why) this.report(word!, why);
  }

  /** A constant string argument the function would reject on every evaluation. */
  private constant(arg: Expr | undefined, fn: 'timestamp' | 'duration' | 'matches'): void {
    const k = arg?.exprKind;
    if (!arg || k?.case !== 'constExpr' || k.value.constantKind.case !== 'stringValue') return;
    const why = this.input.constantProblem?.(fn, k.value.constantKind.value);
    if (why) this.report(arg, why);
  }
}

/** The field `cond` proves not null (`x != null` or `null != x`), or null. */
function nonNullGuard(cond: Expr | undefined): Expr | null {
  const k = cond?.exprKind;
  if (k?.case !== 'callExpr' || k.value.function !== '_!=_' || k.value.args.length !== 2) return null;
  const [l, r] = k.value.args;
  const isNull = (e: Expr) => e.exprKind.case === 'constExpr' && e.exprKind.value.constantKind.case === 'nullValue';
  return isNull(r) ? l : isNull(l) ? r : null;
}

/** The same chain of field selects on the same identifier (`item.name`, `resource.owner.state`). */
function sameField(a: Expr, b: Expr | undefined): boolean {
  const x = a.exprKind;
  const y = b?.exprKind;
  if (x.case === 'identExpr' && y?.case === 'identExpr') return x.value.name === y.value.name;
  if (x.case === 'selectExpr' && y?.case === 'selectExpr') return x.value.field === y.value.field && !x.value.testOnly && !y.value.testOnly && sameField(x.value.operand!, y.value.operand);
  return false;
}
