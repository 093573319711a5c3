// The one place that knows the CEL engine (@bufbuild/cel). Everything else sees
// compileExpression → CompiledExpression.evaluate(bindings) with plain JSON in and out, so
// another CEL implementation can replace this file alone.
import {
  CelScalar,
  celEnv,
  celFunc,
  isCelError,
  isCelList,
  isCelMap,
  isCelType,
  isCelUint,
  parse,
  plan,
  unparse,
} from '@bufbuild/cel';
import { ParsedExprSchema } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { InputProblem } from '../core/problem.js';
import { type Expr, freeIdent, selectPath, walk } from './ast.js';
import { type ClosureProgram, compileClosures } from './cel-closures.js';
import { CelFault, isJsonInt, toJson } from './cel-values.js';
import { HOST_FUNCTIONS, isTimeZone, label } from './host-functions.js';
import { countStep, instrument, metered, nestingProblems, type StepBudget, stepFunction } from './cost.js';
import { didYouMean } from './suggest.js';
import { type TypeContext, typeProblems } from './typecheck.js';

/** Where an expression's text stands, to turn an offset inside it into a file position. */
export interface ExpressionOrigin {
  file: string;
  line: number;
  column: number;
  /** Maps an offset in the expression source to its file position (default: same line). */
  at?(offset: number): { line: number; column: number };
}

export interface CompileOptions {
  /** Variables the expression may use, e.g. ['resource', 'params', 'now'] (+ 'item' with `each`). */
  variables: readonly string[];
  /** Declared parameter names: `params.x` with another x is an error. Omit to skip the check. */
  params?: readonly string[];
  /** What the value must be, when its static type shows it cannot be. */
  /** `text`: rendered in a message, where a value that may be null would print `null`. */
  expect?: 'bool' | 'list' | 'text';
  /** What `resource`, `item` and `params` are known to be (the kind's document schema, …). */
  typing?: TypeContext;
  /** 'reference' runs @bufbuild/cel's own evaluator even where the compiled closures cover the expression. */
  engine?: 'reference';
}

export interface Bindings {
  resource?: unknown;
  item?: unknown;
  params?: Record<string, unknown>;
  now?: Date;
}

export interface CompiledExpression {
  readonly source: string;
  readonly ast: Expr;
  /** Which evaluator runs it: compiled closures, or the reference one for what they do not cover. */
  readonly engine: 'closures' | 'reference';
  /**
   * Plain JSON in and out (CEL ints come back as numbers); throws EvaluationError, also when
   * the expression's step budget or the given resource budget runs out.
   */
  evaluate(bindings: Bindings, budget?: StepBudget): unknown;
}

/** A compile-time problem (syntax, undeclared variable, unknown function, type). */
export class ExpressionError extends Error {
  readonly problems: InputProblem[];
  constructor(problems: InputProblem[]) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'ExpressionError';
    this.problems = problems;
  }
}

/** A run-time failure (no such key, no matching overload, …). Never a pass. */
export class EvaluationError extends Error {
  readonly expression: string;
  constructor(message: string, expression: string) {
    super(message);
    this.name = 'EvaluationError';
    this.expression = expression;
  }
}

const ENV = celEnv({
  funcs: [
    celFunc('isTimeZone', [CelScalar.STRING], CelScalar.BOOL, (s: string) => isTimeZone(s)),
    celFunc('label', [CelScalar.DYN, CelScalar.DYN], CelScalar.STRING, (name: unknown, id: unknown) => label(name, id)),
    stepFunction,
  ],
});

/** Operators the planner handles itself (not in the function resolver). */
const BUILTIN_OPERATORS = new Set(['_&&_', '_||_', '_?_:_', '@not_strictly_false', '@in', '_[_]', '_[?_]']);
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

type Program = ReturnType<typeof plan>;

/** Names of every function and method CEL offers here (for did-you-mean). */
let names: string[] | undefined;
function functionNames(): string[] {
  names ??= [...new Set([...ENV.funcs].map((f) => f.name).filter((n) => /^[A-Za-z]/.test(n)))];
  return names;
}

// Planned at the first constant checked: parsing them warmed the parser at every start, also
// where every expression's parse is known (~4 ms).
let constantPrograms: Record<'timestamp' | 'duration' | 'matches', Program> | undefined;
const constantProgram = (fn: 'timestamp' | 'duration' | 'matches'): Program => {
  constantPrograms ??= {
    timestamp: plan(ENV, parse('timestamp(value)')),
    duration: plan(ENV, parse('duration(value)')),
    matches: plan(ENV, parse("''.matches(value)")),
  };
  return constantPrograms[fn];
};
const CONSTANT_FORMS = {
  timestamp: "expected RFC 3339, e.g. '2025-01-31T00:00:00Z'",
  duration: "expected e.g. '90s', '1h30m'",
};

/** Why CEL rejects this constant argument on every evaluation (asked of the engine itself), or null. */
function constantProblem(fn: 'timestamp' | 'duration' | 'matches', value: string): string | null {
  const result = (constantProgram(fn) as (c: Record<string, unknown>) => unknown)({ value });
  if (!isCelError(result)) return null;
  if (fn === 'matches') return `invalid regular expression ${JSON.stringify(value)}: ${result.message}`;
  return `invalid ${fn} ${JSON.stringify(value)} (${CONSTANT_FORMS[fn]})`;
}

/** Parse+plan counter, so tests can prove each distinct expression is compiled once per run. */
export const celStats = { compilations: 0 };

interface Entry {
  parsed: ReturnType<typeof parse>;
  ast: Expr;
  positions: Record<string, number>;
  /** The compiled form, or why the reference evaluator runs instead. */
  closures: ClosureProgram | { unsupported: string };
  /** The reference evaluator's plan, made only when an expression runs there. */
  program?: Program;
}
const programs = new Map<string, Entry>();

/**
 * Parses made ahead of time: expression source → its ParsedExpr (CEL's own AST message) in
 * protobuf binary, base64. The build stores the built-in pack's (~90 expressions; parsing them
 * cost ~15 ms of every start, decoding them ~3). A source not here is parsed.
 */
const knownParses = new Map<string, string>();

/** Adds parses made ahead of time (`parsesOf` of an earlier process). */
export function addKnownParses(parses: Readonly<Record<string, string>>): void {
  for (const [source, binary] of Object.entries(parses)) knownParses.set(source, binary);
}

/** The parses of `sources` (each compiled in this process) for `addKnownParses`. */
export function parsesOf(sources: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const source of sources) {
    const entry = programs.get(source);
    if (!entry) throw new Error(`parsesOf: ${source} was not compiled`);
    out[source] = Buffer.from(toBinary(ParsedExprSchema, entry.parsed)).toString('base64');
  }
  return out;
}

function parseOnce(source: string): ReturnType<typeof parse> {
  const known = knownParses.get(source);
  if (known === undefined) return parse(source);
  const decoded = fromBinary(ParsedExprSchema, Buffer.from(known, 'base64'));
  if (!decoded.expr) throw new Error(`the known parse of ${JSON.stringify(source)} holds no expression`);
  return decoded as ReturnType<typeof parse>;
}

/** `int(now)`: the one use of the clock the closures cover (epoch seconds); any other stays with the reference. */
function isIntOfNow(e: Expr): boolean {
  const k = e.exprKind;
  if (k.case !== 'callExpr' || k.value.function !== 'int' || k.value.target || k.value.args.length !== 1) return false;
  const arg = k.value.args[0].exprKind;
  return arg.case === 'identExpr' && arg.value.name === 'now';
}

/** Compiles to closures over the free variables the expression reads (`now` only as `int(now)`). */
function closuresOf(ast: Expr): Entry['closures'] {
  const reads = new Set<string>();
  let nowUses = 0;
  let intOfNow = 0;
  walk(ast, (v) => {
    const name = freeIdent(v);
    if (name !== null) reads.add(name);
    if (name === 'now') nowUses++;
    if (isIntOfNow(v.expr)) intOfNow++;
  });
  const variables = [...reads].filter((name) => name !== 'now' || nowUses === intOfNow);
  return compileClosures(ast, { variables, functions: HOST_FUNCTIONS, step: countStep, defaults: { params: {} } });
}

export function compileExpression(source: string, origin: ExpressionOrigin, options: CompileOptions): CompiledExpression {
  const position = (offset: number) =>
    origin.at ? origin.at(offset) : { line: origin.line, column: origin.column + offset };
  const problem = (offset: number, message: string): InputProblem => ({ file: origin.file, ...position(offset), message });

  let entry = programs.get(source);
  if (!entry) {
    let parsed: ReturnType<typeof parse>;
    try {
      parsed = parseOnce(source);
    } catch (e) {
      const err = e as { rawMessage?: string; message: string; location?: { start?: { offset: number } } };
      throw new ExpressionError([
        problem(err.location?.start?.offset ?? 0, `CEL syntax error: ${shortSyntaxMessage(err.rawMessage ?? err.message)}`),
      ]);
    }
    celStats.compilations++;
    const positions: Record<string, number> = {};
    for (const [id, off] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = Number(off);
    entry = { parsed, ast: parsed.expr, positions, closures: closuresOf(parsed.expr) };
    programs.set(source, entry);
  }
  const { ast, positions, closures } = entry;
  const offsetOf = (e: Expr) => positions[String(e.id)] ?? 0;

  const problems = [
    ...[...staticCheck(ast, options), ...nestingProblems(ast)].map((p) => ({ offset: offsetOf(p.expr), message: p.message })),
    ...typeProblems({ ast, source, positions, typing: options.typing, expect: options.expect, constantProblem }),
  ]
    .sort((a, b) => a.offset - b.offset)
    .map((p) => problem(p.offset, p.message));
  if (problems.length > 0) throw new ExpressionError(problems);

  if (!('unsupported' in closures) && options.engine !== 'reference') {
    const compiled = closures;
    let needsNow = false;
    walk(ast, (v) => {
      if (freeIdent(v) === 'now') needsNow = true;
    });
    return {
      source,
      ast,
      engine: 'closures',
      evaluate(bindings: Bindings, budget?: StepBudget): unknown {
        const variables = (needsNow && bindings.now === undefined ? { ...bindings, now: new Date() } : bindings) as Record<string, unknown>;
        try {
          // Only comprehensions count steps; without one there is nothing to meter (and no
          // closure or result object is made: this runs once per policy per resource).
          if (!compiled.loops) return toJson(compiled.run(variables));
          const result = metered(() => compiled.run(variables), budget);
          if ('exceeded' in result) throw new EvaluationError(result.exceeded, source);
          return toJson(result.value);
        } catch (e) {
          if (e instanceof CelFault) throw new EvaluationError(e.message, source);
          throw e;
        }
      },
    };
  }
  // Loop conditions count steps: the budget holds in the reference evaluator too.
  entry.program ??= plan(ENV, { ...entry.parsed, expr: ast && instrument(ast) } as typeof entry.parsed);
  const program = entry.program;
  return {
    source,
    ast,
    engine: 'reference',
    evaluate(bindings: Bindings, budget?: StepBudget): unknown {
      const ctx = referenceContext(bindings);
      const run = metered(() => (program as (c: Record<string, unknown>) => unknown)(ctx), budget);
      if ('exceeded' in run) throw new EvaluationError(run.exceeded, source);
      if (isCelError(run.value)) throw new EvaluationError(run.value.message, source);
      return fromCel(run.value);
    },
  };
}

function referenceContext(bindings: Bindings): Record<string, unknown> {
  const ctx: Record<string, unknown> = {};
  if ('resource' in bindings) ctx.resource = toCel(bindings.resource);
  if ('item' in bindings) ctx.item = toCel(bindings.item);
  ctx.params = toCel(bindings.params ?? {});
  ctx.now = timestampFromDate(bindings.now ?? new Date());
  return ctx;
}

/**
 * For `steward explain`: one node of a compiled expression (a free-standing one: no loop
 * variable in it), as text and as its value by the reference evaluator.
 */
export function explainNode(source: string, node: Expr, bindings: Bindings): { text: string; value: unknown } | { text: string; error: string } {
  const entry = programs.get(source);
  if (!entry) throw new Error(`explainNode: ${source} was not compiled`);
  const parsed = { ...entry.parsed, expr: node } as typeof entry.parsed;
  const text = unparse(parsed);
  try {
    const value = (plan(ENV, parsed) as (c: Record<string, unknown>) => unknown)(referenceContext(bindings));
    return isCelError(value) ? { text, error: value.message } : { text, value: fromCel(value) };
  } catch (e) {
    return { text, error: (e as Error).message };
  }
}

/** The parser lists every token it could accept; past a few that list hides the point. */
function shortSyntaxMessage(message: string): string {
  const m = /^(found .*?) but expecting (.*)$/.exec(message);
  if (!m || m[2].split(',').length <= 3) return message;
  return `unexpected ${m[1].replace(/^found /, '')}`;
}

function staticCheck(ast: Expr, options: CompileOptions): { expr: Expr; message: string }[] {
  const found: { expr: Expr; message: string }[] = [];
  const declared = new Set(options.variables);
  walk(ast, (v) => {
    const name = freeIdent(v);
    if (name !== null && !declared.has(name) && !TYPE_NAMES.has(name)) {
      const hint = name === 'item' ? ' (`item` exists only in a policy with `each`)' : '';
      found.push({ expr: v.expr, message: `undeclared variable '${name}'${hint}; available: ${[...declared].join(', ')}` });
    }
    const k = v.expr.exprKind;
    if (k.case === 'callExpr' && !BUILTIN_OPERATORS.has(k.value.function) && !ENV.funcs.find(k.value.function)) {
      found.push({ expr: v.expr, message: `unknown function '${k.value.function}'${didYouMean(k.value.function, functionNames())}` });
    }
    if (options.params && k.case === 'selectExpr') {
      const path = selectPath(v.expr, 'params');
      if (path?.length === 1 && !options.params.includes(path[0]) && freeIdentAt(v.expr, v.locals)) {
        const known = options.params.length ? options.params.join(', ') : 'none';
        found.push({ expr: v.expr, message: `undeclared parameter '${path[0]}' (declared: ${known})` });
      }
    }
  });
  return found;
}

/** The root of a select chain is the free `params`, not a comprehension variable of that name. */
function freeIdentAt(expr: Expr, locals: ReadonlySet<string>): boolean {
  let e: Expr | undefined = expr;
  while (e?.exprKind.case === 'selectExpr') e = e.exprKind.value.operand;
  return e?.exprKind.case === 'identExpr' && !locals.has(e.exprKind.value.name);
}

// ---- JSON ⇄ CEL values ----------------------------------------------------------------------

/** Converted nested objects, keyed by identity and guarded by their size (parts get added). */
const converted = new WeakMap<object, { size: number; value: unknown }>();

/**
 * A JSON object seen as a CEL map without converting it first: a field is converted when an
 * expression reads it (and kept), so a policy reading three fields of a large document pays for
 * three. Keys are the object's own keys; JSON objects have no other kind.
 */
class JsonObjectMap extends Map<string, unknown> {
  /** Per key: the raw value converted, and what it became (a replaced value is converted again). */
  private readonly cache = new Map<string, { raw: unknown; value: unknown }>();
  // A Map (empty underneath) because the CEL runtime accepts native maps; every read is overridden.
  constructor(private readonly object: Record<string, unknown>) {
    super();
  }
  override get size(): number {
    return Object.keys(this.object).length;
  }
  override get(key: string): unknown {
    if (typeof key !== 'string' || !Object.hasOwn(this.object, key)) return undefined;
    const raw = this.object[key];
    const hit = this.cache.get(key);
    if (hit && hit.raw === raw) return hit.value;
    const value = toCel(raw);
    this.cache.set(key, { raw, value });
    return value;
  }
  override has(key: string): boolean {
    return typeof key === 'string' && Object.hasOwn(this.object, key);
  }
  override keys(): MapIterator<string> {
    return Object.keys(this.object)[Symbol.iterator]();
  }
  override *values(): MapIterator<unknown> {
    for (const key of Object.keys(this.object)) yield this.get(key);
  }
  override *entries(): MapIterator<[string, unknown]> {
    for (const key of Object.keys(this.object)) yield [key, this.get(key)];
  }
  override [Symbol.iterator](): MapIterator<[string, unknown]> {
    return this.entries();
  }
  override forEach(callback: (value: unknown, key: string, map: Map<string, unknown>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }
  override set(): this {
    throw new TypeError('a JSON document seen by CEL is read-only');
  }
}

/** JSON → CEL: whole numbers become ints (bigint), other numbers doubles; objects become maps. */
export function toCel(value: unknown): unknown {
  if (typeof value === 'number') return isJsonInt(value) ? BigInt(value) : value;
  if (value === null || typeof value !== 'object') return value ?? null;
  if (value instanceof Date) return timestampFromDate(value);
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  const hit = converted.get(value);
  if (hit && hit.size === size) return hit.value;
  const out = Array.isArray(value) ? value.map(toCel) : new JsonObjectMap(value as Record<string, unknown>);
  converted.set(value, { size, value: out });
  return out;
}

/** CEL → JSON: ints become numbers (strings beyond 2^53), timestamps ISO strings. */
export function fromCel(value: unknown): unknown {
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (value === null || typeof value !== 'object') return value;
  if (isCelUint(value)) return fromCel(value.value);
  if (isCelList(value) || Array.isArray(value)) return [...(value as Iterable<unknown>)].map(fromCel);
  if (isCelMap(value) || value instanceof Map || value instanceof JsonObjectMap) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value as Map<unknown, unknown>) out[String(k)] = fromCel(v);
    return out;
  }
  if (isCelType(value)) return value.name;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  const msg = value as { $typeName?: string; message?: unknown };
  const inner = (msg.message ?? msg) as { $typeName?: string; seconds?: bigint; nanos?: number };
  if (inner.$typeName === 'google.protobuf.Timestamp') {
    return timestampDate(inner as Parameters<typeof timestampDate>[0]).toISOString();
  }
  if (inner.$typeName === 'google.protobuf.Duration') return `${inner.seconds ?? 0n}s`;
  return String(value);
}
