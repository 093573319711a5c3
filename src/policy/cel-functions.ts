// The standard functions and operators of the compiled evaluator (cel-closures.ts), by CEL
// name, over the values of cel-values.ts: each checks its argument types as the reference
// evaluator's overloads do, and a call no overload takes is an error, never a guess.
import { RE2JS } from '@bufbuild/re2';
import {
  CelFault,
  celEquals,
  checkedInt,
  isList,
  isMap,
  listAt,
  listItems,
  listSize,
  mapGet,
  mapHas,
  mapSize,
  toInt,
  typeName,
  ValueList,
} from './cel-values.js';

export const noOverload = (fn: string, args: unknown[]): CelFault =>
  new CelFault(`found no matching overload for '${fn}' applied to '(${args.map(typeName).join(', ')})'`);

/** One function or operator: its CEL name first (for errors), then its arguments. */
export type Impl = (fn: string, ...args: unknown[]) => unknown;

const compare =
  (test: (c: number) => boolean): Impl =>
  (fn, l, r) => {
    const tl = typeof l;
    const tr = typeof r;
    if (tl === tr && (tl === 'bigint' || tl === 'number' || tl === 'string' || tl === 'boolean')) {
      return test((l as number) < (r as number) ? -1 : (l as number) > (r as number) ? 1 : l === r ? 0 : Number.NaN);
    }
    if ((tl === 'bigint' && tr === 'number') || (tl === 'number' && tr === 'bigint')) {
      const a = Number(l);
      const b = Number(r);
      return test(a < b ? -1 : a > b ? 1 : a === b ? 0 : Number.NaN);
    }
    throw noOverload(fn, [l, r]);
  };

const arithmetic =
  (ints: (a: bigint, b: bigint) => bigint, doubles: ((a: number, b: number) => number) | null): Impl =>
  (fn, l, r) => {
    if (typeof l === 'bigint' && typeof r === 'bigint') return checkedInt(ints(l, r), fn);
    if (doubles && typeof l === 'number' && typeof r === 'number') return doubles(l, r);
    throw noOverload(fn, [l, r]);
  };

function add(fn: string, l: unknown, r: unknown): unknown {
  if (typeof l === 'bigint' && typeof r === 'bigint') return checkedInt(l + r, fn);
  if ((typeof l === 'number' && typeof r === 'number') || (typeof l === 'string' && typeof r === 'string')) {
    return (l as number) + (r as number);
  }
  if (isList(l) && isList(r)) return new ValueList([...listItems(l), ...listItems(r)]);
  throw noOverload(fn, [l, r]);
}

function divide(fn: string, l: unknown, r: unknown): unknown {
  if (typeof l === 'bigint' && typeof r === 'bigint') {
    if (r === 0n) throw new CelFault('int divide by zero');
    return checkedInt(l / r, fn);
  }
  if (typeof l === 'number' && typeof r === 'number') return l / r;
  throw noOverload(fn, [l, r]);
}

function modulo(fn: string, l: unknown, r: unknown): unknown {
  if (typeof l === 'bigint' && typeof r === 'bigint') {
    if (r === 0n) throw new CelFault('int modulus by zero');
    return l % r;
  }
  throw noOverload(fn, [l, r]);
}

function size(fn: string, x: unknown): bigint {
  if (typeof x === 'string') {
    let n = 0;
    for (const _ of x) n++;
    return BigInt(n);
  }
  if (isList(x)) return BigInt(listSize(x));
  if (isMap(x)) return BigInt(mapSize(x));
  throw noOverload(fn, [x]);
}

function index(fn: string, container: unknown, key: unknown): unknown {
  if (isList(container)) {
    const i = typeof key === 'bigint' ? Number(key) : typeof key === 'number' && Number.isInteger(key) ? key : undefined;
    if (i === undefined) throw noOverload(fn, [container, key]);
    const n = listSize(container);
    if (i < 0 || i >= n) throw new CelFault(`index ${i} out of bounds [0, ${n})`);
    return listAt(container, i);
  }
  if (isMap(container)) {
    const v = mapGet(container, key);
    if (v === undefined) throw new CelFault(`no such key: ${String(key)}`);
    return v;
  }
  throw noOverload(fn, [container, key]);
}

const KEY_TYPES = new Set(['bigint', 'number', 'string', 'boolean']);

function membership(fn: string, value: unknown, container: unknown): boolean {
  if (isList(container)) {
    const n = listSize(container);
    for (let i = 0; i < n; i++) if (celEquals(listAt(container, i), value)) return true;
    return false;
  }
  if (isMap(container) && KEY_TYPES.has(typeof value)) return mapHas(container, value);
  throw noOverload(fn, [value, container]);
}

const stringMethod =
  (test: (s: string, arg: string) => boolean): Impl =>
  (fn, s, arg) => {
    if (typeof s !== 'string' || typeof arg !== 'string') throw noOverload(fn, [s, arg]);
    return test(s, arg);
  };

const patterns = new Map<string, RE2JS>();
function matches(s: string, pattern: string): boolean {
  let re = patterns.get(pattern);
  if (!re) {
    try {
      re = RE2JS.compile(pattern);
    } catch (e) {
      throw new CelFault(`invalid regular expression ${JSON.stringify(pattern)}: ${(e as Error).message}`);
    }
    patterns.set(pattern, re);
  }
  return re.test(s);
}

function convertInt(fn: string, x: unknown): bigint {
  if (typeof x === 'bigint' || typeof x === 'number' || typeof x === 'string') return toInt(x);
  // `int(now)` (the closures pass the clock only there): seconds since the epoch, as CEL's int(timestamp).
  if (x instanceof Date) return BigInt(Math.floor(x.getTime() / 1000));
  throw noOverload(fn, [x]);
}

function convertDouble(fn: string, x: unknown): number {
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  if (typeof x === 'string') {
    const n = Number(x);
    // Number('') is 0 and Number(' 1') is 1; CEL accepts a numeral only.
    if (x.trim() !== x || x === '' || (Number.isNaN(n) && x !== 'NaN')) throw new CelFault(`cannot convert '${x}' to double`);
    return n;
  }
  throw noOverload(fn, [x]);
}

function convertString(fn: string, x: unknown): string {
  if (typeof x === 'string') return x;
  if (typeof x === 'bigint' || typeof x === 'number' || typeof x === 'boolean') return String(x);
  throw noOverload(fn, [x]);
}

const BOOL_STRINGS: Readonly<Record<string, boolean>> = { true: true, True: true, TRUE: true, t: true, '1': true, false: false, False: false, FALSE: false, f: false, '0': false };

function convertBool(fn: string, x: unknown): boolean {
  if (typeof x === 'boolean') return x;
  if (typeof x === 'string' && Object.hasOwn(BOOL_STRINGS, x)) return BOOL_STRINGS[x];
  if (typeof x === 'string') throw new CelFault(`cannot convert '${x}' to bool`);
  throw noOverload(fn, [x]);
}

/** Global functions and operators, by CEL name; an Impl's arity (+1 for fn) is checked at compile time. */
export const FUNCTIONS: Readonly<Record<string, Impl>> = {
  '!_': (fn, x) => {
    if (typeof x !== 'boolean') throw noOverload(fn, [x]);
    return !x;
  },
  '-_': (fn, x) => {
    if (typeof x === 'bigint') return checkedInt(-x, fn);
    if (typeof x === 'number') return -x;
    throw noOverload(fn, [x]);
  },
  '_==_': (_fn, l, r) => celEquals(l, r),
  '_!=_': (_fn, l, r) => !celEquals(l, r),
  '_<_': compare((c) => c < 0),
  '_<=_': compare((c) => c <= 0),
  '_>_': compare((c) => c > 0),
  '_>=_': compare((c) => c >= 0),
  '_+_': add,
  '_-_': arithmetic((a, b) => a - b, (a, b) => a - b),
  '_*_': arithmetic((a, b) => a * b, (a, b) => a * b),
  '_/_': divide,
  '_%_': modulo,
  '_[_]': index,
  '@in': membership,
  size,
  int: convertInt,
  double: convertDouble,
  string: convertString,
  bool: convertBool,
  dyn: (_fn, x) => x,
};

export const METHODS: Readonly<Record<string, Impl>> = {
  size,
  contains: stringMethod((s, a) => s.includes(a)),
  startsWith: stringMethod((s, a) => s.startsWith(a)),
  endsWith: stringMethod((s, a) => s.endsWith(a)),
  matches: stringMethod(matches),
};
