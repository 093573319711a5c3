// The one place that knows the CEL engine (@bufbuild/cel, and protobuf under it). cel.ts loads
// this module only when a run needs it: to parse an expression the built-in pack has no AST for,
// to check a constant argument, to run an expression on the reference evaluator, to explain one.
// Loading it builds protobuf's descriptors and CEL's standard library: a run of the built-in
// pack alone never does, and `validate` of the demo takes 18 % less CPU on Node 24 for it
// (BENCHMARKS.md, start-up). Another CEL implementation can replace this file alone.
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
import { ExprSchema } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { equals } from '@bufbuild/protobuf';
import { timestampDate, timestampFromDate } from '@bufbuild/protobuf/wkt';
import type { Expr } from './ast.js';
import { type Bindings, isJsonInt } from './cel-values.js';
import { countStep, STEP } from './cost.js';
import { isTimeZone, label } from './host-functions.js';
import { decodeKnownAst, encodeKnownAst, type KnownAst } from './known-ast.js';

/** What the parser gives: CEL's ParsedExpr message. */
export type ParsedExpr = ReturnType<typeof parse>;

/** The reference evaluator's compiled form of one expression. */
export type Program = ReturnType<typeof plan>;

/** Counts one loop iteration of the reference evaluator (cost.ts `instrument` wraps loop conditions in it). */
const stepFunction = celFunc(STEP, [CelScalar.DYN], CelScalar.DYN, <T>(value: T): T => {
  countStep();
  return value;
});

const ENV = celEnv({
  funcs: [
    celFunc('isTimeZone', [CelScalar.STRING], CelScalar.BOOL, (s: string) => isTimeZone(s)),
    celFunc('label', [CelScalar.DYN, CelScalar.DYN], CelScalar.STRING, (name: unknown, id: unknown) => label(name, id)),
    stepFunction,
  ],
});

let names: ReadonlySet<string> | undefined;
/** The name of every function and method CEL offers here, operators included. */
export const functionNames = (): ReadonlySet<string> => (names ??= new Set([...ENV.funcs].map((f) => f.name)));

/** The parse of `source` (throws the parser's error on a syntax error). */
export function parseExpression(source: string): { parsed: ParsedExpr; ast: Expr; positions: Record<string, number> } {
  const parsed = parse(source);
  const positions: Record<string, number> = {};
  for (const [id, off] of Object.entries(parsed.sourceInfo?.positions ?? {})) positions[id] = Number(off);
  return { parsed, ast: parsed.expr as Expr, positions };
}

/**
 * The known AST of an expression `source` parses to (known-ast.ts), checked here against the
 * parser: its decoding must equal the parse, message for message, or the build stops.
 */
export function knownAstOf(source: string): KnownAst {
  const { ast, positions } = parseExpression(source);
  const known = encodeKnownAst(ast, positions);
  const decoded = decodeKnownAst(known);
  if (!equals(ExprSchema, decoded.ast, ast) || JSON.stringify(decoded.positions) !== JSON.stringify(positions)) {
    throw new Error(`knownAstOf: the AST of ${JSON.stringify(source)} does not survive its encoding`);
  }
  return known;
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
export function constantProblem(fn: 'timestamp' | 'duration' | 'matches', value: string): string | null {
  const result = (constantProgram(fn) as (c: Record<string, unknown>) => unknown)({ value });
  if (!isCelError(result)) return null;
  if (fn === 'matches') return `invalid regular expression ${JSON.stringify(value)}: ${result.message}`;
  return `invalid ${fn} ${JSON.stringify(value)} (${CONSTANT_FORMS[fn]})`;
}

/** `parsed` with `ast` in its place, planned for the reference evaluator. */
export const referenceProgram = (parsed: ParsedExpr, ast: Expr): Program => plan(ENV, { ...parsed, expr: ast } as ParsedExpr);

/** Runs a planned program on the variables `referenceContext` made: CEL's value, or its error. */
export const callReference = (program: Program, context: Record<string, unknown>): unknown => (program as (c: Record<string, unknown>) => unknown)(context);

/** CEL's value as JSON, or the CEL error's message. */
export const referenceResult = (value: unknown): { value: unknown } | { error: string } =>
  isCelError(value) ? { error: value.message } : { value: fromCel(value) };

/** One node of a parsed expression as text, with its value by the reference evaluator (`steward explain`). */
export function explainReference(parsed: ParsedExpr, node: Expr, bindings: Bindings): { text: string; value: unknown } | { text: string; error: string } {
  const withNode = { ...parsed, expr: node } as ParsedExpr;
  const text = unparse(withNode);
  try {
    return { text, ...referenceResult(callReference(plan(ENV, withNode), referenceContext(bindings))) };
  } catch (e) {
    return { text, error: (e as Error).message };
  }
}

/** The variables of an evaluation as the reference evaluator takes them. */
export function referenceContext(bindings: Bindings): Record<string, unknown> {
  const ctx: Record<string, unknown> = {};
  if ('resource' in bindings) ctx.resource = toCel(bindings.resource);
  if ('item' in bindings) ctx.item = toCel(bindings.item);
  ctx.params = toCel(bindings.params ?? {});
  ctx.now = timestampFromDate(bindings.now ?? new Date());
  return ctx;
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
function toCel(value: unknown): unknown {
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
function fromCel(value: unknown): unknown {
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
