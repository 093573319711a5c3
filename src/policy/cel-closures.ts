// A CEL expression compiled once into JavaScript closures that read JSON documents as they are.
// It covers the language policies use (literals, fields, has(), indexing, operators, list and
// map literals, comprehensions, size/contains/startsWith/endsWith/matches, conversions) with
// CEL's semantics: int and double kept apart, int overflow an error, `&&`/`||` absorbing an
// error when the other side decides. Anything else (timestamps, uint, bytes, messages, `now`)
// is reported as unsupported and the reference evaluator runs the expression instead.
import type { Expr } from './ast.js';
import { FUNCTIONS, METHODS, noOverload } from './cel-functions.js';
import { CelFault, fromJson, isList, isMap, listItems, type MapKey, mapKeys, typeName, ValueList, ValueMap } from './cel-values.js';

type Frame = unknown[];
type Node = (frame: Frame) => unknown;

/** A host function: takes CEL values, returns one, throws CelFault on a wrong argument. */
export type HostFunction = (args: unknown[]) => unknown;

export interface ClosureProgram {
  /** Variables as JSON (or CEL values); throws CelFault. */
  run(variables: Readonly<Record<string, unknown>>): unknown;
  /** Whether it has a comprehension (the only thing that counts steps). */
  readonly loops: boolean;
}

export interface ClosureOptions {
  /** The free variables the expression may read, bound by name on each run. */
  variables: readonly string[];
  /** Functions beyond CEL's standard ones, by name (global calls only). */
  functions?: Readonly<Record<string, HostFunction>>;
  /** Called before each comprehension iteration (the cost meter); may throw. */
  step?: () => void;
  /** Values of variables left unbound (undefined); any other unbound variable is an error. */
  defaults?: Readonly<Record<string, unknown>>;
}

/** Thrown while compiling: the construct this compiler leaves to the reference evaluator. */
class Unsupported {
  constructor(readonly what: string) {}
}

export function compileClosures(ast: Expr, options: ClosureOptions): ClosureProgram | { unsupported: string } {
  const compiler = new Compiler(options);
  let root: Node;
  try {
    root = compiler.node(ast);
  } catch (e) {
    if (e instanceof Unsupported) return { unsupported: e.what };
    throw e;
  }
  const { variables, defaults = {} } = options;
  const size = compiler.slots;
  return {
    loops: compiler.loops,
    run(bound) {
      // Stryker disable next-line ArrayDeclaration: the frame grows as its slots are written
      const frame: Frame = new Array(size);
      for (let i = 0; i < variables.length; i++) {
        let value = bound[variables[i]];
        if (value === undefined) value = defaults[variables[i]];
        if (value === undefined) throw new CelFault(`unbound variable '${variables[i]}'`);
        frame[i] = fromJson(value);
      }
      return root(frame);
    },
  };
}

/** The value an accumulator holds after a step failed: read again, it throws that failure. */
class Failed {
  constructor(readonly fault: unknown) {}
}

class Compiler {
  slots: number;
  // Stryker disable next-line BooleanLiteral: metering an expression without loops counts nothing
  loops = false;
  private readonly scope: Map<string, { slot: number; accumulator: boolean }>[] = [];
  constructor(private readonly options: ClosureOptions) {
    this.slots = options.variables.length;
    // Stryker disable next-line BooleanLiteral: a variable never holds a failed step
    this.scope.push(new Map(options.variables.map((name, slot) => [name, { slot, accumulator: false }])));
  }

  node(e: Expr): Node {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr':
        return constant(e);
      case 'identExpr':
        return this.ident(k.value.name);
      case 'selectExpr':
        return select(this.node(req(k.value.operand)), k.value.field, k.value.testOnly, fromJson);
      case 'listExpr': {
        // Stryker disable next-line all: the reason is only a diagnostic: the reference evaluator runs instead (the parser reads no optional elements)
        if (k.value.optionalIndices.length > 0) throw new Unsupported('optional list elements');
        const items = k.value.elements.map((x) => this.node(x));
        return (f) => new ValueList(items.map((item) => item(f)));
      }
      case 'structExpr':
        return this.mapLiteral(k.value);
      case 'comprehensionExpr':
        return this.comprehension(k.value);
      case 'callExpr':
        return this.call(k.value.function, k.value.target, k.value.args);
      default:
        // Stryker disable next-line StringLiteral: the reason is only a diagnostic: the reference evaluator runs instead
        throw new Unsupported(`expression kind ${String(k.case)}`);
    }
  }

  private ident(name: string): Node {
    for (let i = this.scope.length - 1; i >= 0; i--) {
      const found = this.scope[i].get(name);
      if (!found) continue;
      const { slot } = found;
      // Stryker disable next-line ConditionalExpression: a variable never holds a failed step
      if (!found.accumulator) return (f) => f[slot];
      return (f) => {
        const v = f[slot];
        if (v instanceof Failed) throw v.fault;
        return v;
      };
    }
    // Stryker disable next-line StringLiteral: the reason is only a diagnostic: the reference evaluator runs instead
    throw new Unsupported(`identifier '${name}'`);
  }

  private mapLiteral(value: Extract<Expr['exprKind'], { case: 'structExpr' }>['value']): Node {
    // Stryker disable next-line StringLiteral: the reason is only a diagnostic: the reference evaluator runs instead
    if (value.messageName) throw new Unsupported(`message ${value.messageName}`);
    const entries = value.entries.map((entry) => {
      // Stryker disable next-line StringLiteral: the reason is only a diagnostic: the reference evaluator runs instead
      if (entry.optionalEntry || entry.keyKind.case !== 'mapKey') throw new Unsupported('optional map entries');
      return { key: this.node(entry.keyKind.value), value: this.node(req(entry.value)) };
    });
    return (f) => {
      const out = new Map<MapKey, unknown>();
      for (const entry of entries) {
        const key = entry.key(f);
        if (typeof key !== 'bigint' && typeof key !== 'string' && typeof key !== 'boolean') throw new CelFault('unsupported key type');
        if (out.has(key)) throw new CelFault(`map key conflict: ${String(key)}`);
        out.set(key, entry.value(f));
      }
      return new ValueMap(out);
    };
  }

  private comprehension(c: Extract<Expr['exprKind'], { case: 'comprehensionExpr' }>['value']): Node {
    // Stryker disable next-line all: the reason is only a diagnostic: the reference evaluator runs instead (without it the second variable is an unknown identifier: the same)
    if (c.iterVar2) throw new Unsupported('two-variable comprehensions');
    this.loops = true;
    const range = this.node(req(c.iterRange));
    const init = this.node(req(c.accuInit));
    const accuSlot = this.slots++;
    const iterSlot = this.slots++;
    this.scope.push(new Map([[c.accuVar, { slot: accuSlot, accumulator: true }]]));
    const result = this.node(req(c.result));
    // Stryker disable next-line BooleanLiteral: the iteration variable never holds a failed step
    this.scope.push(new Map([[c.iterVar, { slot: iterSlot, accumulator: false }]]));
    const condition = this.node(req(c.loopCondition));
    const step = this.node(req(c.loopStep));
    this.scope.pop();
    this.scope.pop();
    const count = this.options.step;
    return (f) => {
      f[accuSlot] = init(f);
      const iterable = range(f);
      let items: unknown[];
      if (isList(iterable)) items = listItems(iterable);
      else if (isMap(iterable)) items = mapKeys(iterable);
      else throw new CelFault(`type mismatch: iterable vs ${typeName(iterable)}`);
      for (const item of items) {
        f[iterSlot] = item;
        count?.();
        if (condition(f) !== true) break;
        try {
          f[accuSlot] = step(f);
        } catch (fault) {
          // Stryker disable next-line ConditionalExpression: only the loop budget throws a plain Error here, and metered() reports it whatever the result
          if (!(fault instanceof CelFault)) throw fault;
          f[accuSlot] = new Failed(fault);
        }
      }
      return result(f);
    };
  }

  private call(fn: string, target: Expr | undefined, argExprs: Expr[]): Node {
    const functions = this.options.functions ?? {};
    if (!target && Object.hasOwn(functions, fn)) {
      const host = functions[fn];
      const args = argExprs.map((a) => this.node(a));
      return (f) => host(args.map((a) => a(f)));
    }
    const logic = this.logic(fn, argExprs) ?? (target ? undefined : this.againstConstant(fn, argExprs));
    if (logic) return logic;
    const self = target ? this.node(target) : undefined;
    const args = argExprs.map((a) => this.node(a));
    const impl = own(self ? METHODS : FUNCTIONS, fn);
    if (!impl || impl.length !== 1 + args.length + (self ? 1 : 0)) {
      // Stryker disable next-line StringLiteral: the reason is only a diagnostic: the reference evaluator runs instead
      throw new Unsupported(`${self ? 'method' : 'function'} ${fn}/${args.length}`);
    }
    if (self) {
      if (args.length === 0) return (f) => impl(fn, self(f));
      const [a] = args;
      return (f) => impl(fn, self(f), a(f));
    }
    if (args.length === 1) {
      const [a] = args;
      return (f) => impl(fn, a(f));
    }
    const [a, b] = args;
    return (f) => impl(fn, a(f), b(f));
  }

  /**
   * `field OP constant`, the commonest shape in a policy, without building a CEL value: a string,
   * bool or null constant is equal only to the same JS value, and a JSON number compares with a
   * number constant as a number (CEL compares int with double numerically too).
   */
  private againstConstant(fn: string, argExprs: Expr[]): Node | undefined {
    // Stryker disable next-line ConditionalExpression,StringLiteral: without it equality takes the general path: slower, the same answer
    const equality = fn === '_==_' || fn === '_!=_';
    const order = own(ORDER_TESTS, fn);
    // Stryker disable next-line LogicalOperator,ConditionalExpression,EqualityOperator: the operators are binary; otherwise the general path: the same answer
    if ((!equality && !order) || argExprs.length !== 2) return undefined;
    const [l, r] = argExprs.map(constantOf);
    // Stryker disable next-line all: a wrong side is either a constant too or NOT_CONSTANT, which takes the general path
    const flipped = l !== NOT_CONSTANT && r === NOT_CONSTANT;
    const c = flipped ? l : r;
    const other = argExprs[flipped ? 1 : 0];
    if (c === NOT_CONSTANT || (typeof c === 'bigint' && (c > MAX_EXACT || c < -MAX_EXACT))) return undefined;
    const general = FUNCTIONS[fn]; // an operator: always in the table
    const read = this.rawNode(other);
    const want = fn === '_==_';
    if (typeof c === 'bigint' || typeof c === 'number') {
      const n = Number(c);
      if (!order) {
        return (f) => {
          const v = read(f);
          return typeof v === 'number' ? (v === n) === want : general(fn, fromJson(v), c);
        };
      }
      const test = flipped ? (v: number) => order(n, v) : (v: number) => order(v, n);
      return (f) => {
        const v = read(f);
        if (typeof v === 'number') return test(v);
        return flipped ? general(fn, c, fromJson(v)) : general(fn, fromJson(v), c);
      };
    }
    if (!equality) return undefined;
    // A string, bool or null constant: CEL equality is JS identity here.
    return (f) => (read(f) === c) === want;
  }

  /** A field read that leaves a JSON number as it is (the caller knows what to do with it). */
  private rawNode(e: Expr): Node {
    const k = e.exprKind;
    if (k.case === 'selectExpr' && !k.value.testOnly) return select(this.node(req(k.value.operand)), k.value.field, false, raw);
    return this.node(e);
  }

  /** Operators that decide on their own which arguments to evaluate. */
  private logic(fn: string, argExprs: Expr[]): Node | undefined {
    switch (fn) {
      case '_&&_':
        return both(this.node(argExprs[0]), this.node(argExprs[1]), false);
      case '_||_':
        return both(this.node(argExprs[0]), this.node(argExprs[1]), true);
      case '_?_:_': {
        const [c, t, e] = argExprs.map((a) => this.node(a));
        return (f) => {
          const v = c(f);
          if (v === true) return t(f);
          if (v === false) return e(f);
          throw noOverload('_?_:_', [v]);
        };
      }
      case '@not_strictly_false': {
        const a = this.node(argExprs[0]);
        return (f) => {
          try {
            return a(f) !== false;
          } catch (fault) {
            // Stryker disable next-line ConditionalExpression: only the loop budget throws a plain Error here, and metered() reports it whatever the result
            if (fault instanceof CelFault) return true;
            throw fault;
          }
        };
      }
      // Stryker disable next-line all: the other operators are calls
      default:
        return undefined;
    }
  }
}

/** `a && b` (decisive false) or `a || b` (decisive true): an error is absorbed when the other side decides. */
function both(a: Node, b: Node, decisive: boolean): Node {
  const op = decisive ? '_||_' : '_&&_';
  return (f) => {
    let fault: unknown;
    try {
      const left = a(f);
      if (left === decisive) return decisive;
      if (left !== !decisive) fault = noOverload(op, [left]);
    } catch (e) {
      // Stryker disable next-line ConditionalExpression: only the loop budget throws a plain Error here, and metered() reports it whatever the result
      if (!(e instanceof CelFault)) throw e;
      fault = e;
    }
    let right: unknown;
    try {
      right = b(f);
    } catch (e) {
      throw fault ?? e;
    }
    if (right === decisive) return decisive;
    if (fault) throw fault;
    if (right !== !decisive) throw noOverload(op, [right]);
    return !decisive;
  };
}

function req(e: Expr | undefined): Expr {
  // Stryker disable next-line StringLiteral: the reason is only a diagnostic: the reference evaluator runs instead
  if (!e) throw new Unsupported('an empty expression');
  return e;
}

function constant(e: Expr): Node {
  const value = constantOf(e);
  if (value === NOT_CONSTANT) {
    const k = e.exprKind;
    // Stryker disable next-line StringLiteral: the reason is only a diagnostic: the reference evaluator runs instead
    throw new Unsupported(`${String(k.case === 'constExpr' ? k.value.constantKind.case : k.case)} literals`);
  }
  return () => value;
}

const NOT_CONSTANT = Symbol('not a constant');
/** Beyond 2^53 a bigint constant is not exact as a number. */
const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);
const raw = (v: unknown): unknown => v;

/** The value of a null, bool, int, double or string literal. */
function constantOf(e: Expr): unknown {
  const k = e.exprKind;
  if (k.case !== 'constExpr') return NOT_CONSTANT;
  const c = k.value.constantKind;
  switch (c.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'int64Value':
    case 'doubleValue':
    case 'stringValue':
      return c.value;
    default:
      return NOT_CONSTANT;
  }
}

/** A table's own entry (a CEL name such as `toString` must not find Object.prototype's). */
function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

// Stryker disable next-line ObjectLiteral: without the table order tests take the general path: the same answer
const ORDER_TESTS: Readonly<Record<string, (a: number, b: number) => boolean>> = {
  '_<_': (a, b) => a < b,
  '_<=_': (a, b) => a <= b,
  '_>_': (a, b) => a > b,
  '_>=_': (a, b) => a >= b,
};

function select(operand: Node, field: string, testOnly: boolean, read: (v: unknown) => unknown): Node {
  // A plain object answers prototype names (`constructor`…) unless asked for own keys.
  const inherited = field in Object.prototype;
  return (f) => {
    const o = operand(f);
    if (o instanceof ValueMap) {
      const v = o.entries.get(field);
      if (testOnly) return v !== undefined && v !== null;
      if (v === undefined) throw new CelFault(`field not found: ${field}`);
      return v;
    }
    if (typeof o !== 'object' || o === null || isList(o)) {
      throw new CelFault(`type '${typeName(o)}' does not support field selection`);
    }
    const raw = o as Record<string, unknown>;
    const value = inherited && !Object.hasOwn(raw, field) ? undefined : raw[field];
    // As @bufbuild/cel answers it: a key whose value is null is not there for has().
    if (testOnly) return value !== undefined && value !== null;
    if (value === undefined) throw new CelFault(`field not found: ${field}`);
    return read(value);
  };
}
