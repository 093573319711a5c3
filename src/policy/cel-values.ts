// The values the compiled evaluator (cel-closures.ts) works on. JSON documents are read as
// they are, with no conversion first: a number read out of a document is a CEL int (bigint)
// when whole and a double (number) otherwise, the same rule toCel applies. Lists and maps the
// expression builds itself hold CEL values already, so they are their own classes: a whole
// double inside them must stay a double.

/** The variables of an evaluation, as JSON (cel.ts and the reference evaluator, cel-engine.ts, take them). */
export interface Bindings {
  resource?: unknown;
  item?: unknown;
  params?: Record<string, unknown>;
  now?: Date;
}

/** A run-time error of a compiled expression: thrown, never returned (no stack, it is cheap). */
export class CelFault {
  constructor(readonly message: string) {}
}

/** A list built by the expression (a literal, map(), filter(), +): its items are CEL values. */
export class ValueList {
  constructor(readonly items: unknown[]) {}
}

/** Map keys as CEL compares them: a whole double finds the int key, an int finds no string. */
export type MapKey = bigint | string | boolean;

/** A map built by the expression or given as a CEL value: keys normalised, values CEL values. */
export class ValueMap {
  constructor(readonly entries: Map<MapKey, unknown>) {}
}

const MIN_INT = -(2n ** 63n);
const MAX_INT = 2n ** 63n - 1n;

/** Whole JSON numbers in int64's range are ints; the rest (fractions, 1e300) doubles. */
export function isJsonInt(value: number): boolean {
  return Number.isInteger(value) && value >= -(2 ** 63) && value < 2 ** 63;
}

/** A value read out of a JSON document, as CEL sees it. */
export function fromJson(value: unknown): unknown {
  if (typeof value === 'number') return isJsonInt(value) ? BigInt(value) : value;
  return value === undefined ? null : value;
}

export function isList(v: unknown): v is unknown[] | ValueList {
  return Array.isArray(v) || v instanceof ValueList;
}

export function isMap(v: unknown): v is Record<string, unknown> | ValueMap {
  return v instanceof ValueMap || (typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof ValueList));
}

/** The items of a list as CEL values. */
export function listItems(list: unknown[] | ValueList): unknown[] {
  return Array.isArray(list) ? list.map(fromJson) : list.items;
}

export function listSize(list: unknown[] | ValueList): number {
  return Array.isArray(list) ? list.length : list.items.length;
}

export function listAt(list: unknown[] | ValueList, index: number): unknown {
  return Array.isArray(list) ? fromJson(list[index]) : list.items[index];
}

/** A CEL key for a map lookup, or undefined when no key can equal it (a fractional double, a list…). */
export function mapKey(key: unknown): MapKey | undefined {
  if (typeof key === 'bigint' || typeof key === 'string' || typeof key === 'boolean') return key;
  if (typeof key === 'number' && Number.isInteger(key)) return BigInt(key);
  return undefined;
}

/** `key in map`: as @bufbuild/cel answers it, a key whose value is null is not in the map. */
export function mapHas(map: Record<string, unknown> | ValueMap, key: unknown): boolean {
  const k = mapKey(key);
  if (k === undefined) return false;
  if (map instanceof ValueMap) return (map.entries.get(k) ?? null) !== null;
  return typeof k === 'string' && Object.hasOwn(map, k) && map[k] !== null;
}

/** The value under `key`, or undefined when there is none. */
export function mapGet(map: Record<string, unknown> | ValueMap, key: unknown): unknown {
  const k = mapKey(key);
  if (k === undefined) return undefined;
  if (map instanceof ValueMap) return map.entries.get(k);
  return typeof k === 'string' && Object.hasOwn(map, k) ? fromJson(map[k]) : undefined;
}

export function mapKeys(map: Record<string, unknown> | ValueMap): unknown[] {
  return map instanceof ValueMap ? [...map.entries.keys()] : Object.keys(map);
}

export function mapSize(map: Record<string, unknown> | ValueMap): number {
  return map instanceof ValueMap ? map.entries.size : Object.keys(map).length;
}

/** CEL's type name of a value, for error messages. */
export function typeName(v: unknown): string {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      if (v === null || v === undefined) return 'null_type';
      return isList(v) ? 'list' : isMap(v) ? 'map' : 'unknown';
  }
}

/** Equality as CEL defines it: numbers across int and double, lists and maps deeply, else same type and value. */
export function celEquals(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if ((ta === 'bigint' || ta === 'number') && (tb === 'bigint' || tb === 'number')) {
    // An int and a double are equal when their values are: exact, as bigint/number loose equality is.
    // biome-ignore lint/suspicious/noDoubleEquals: the one comparison that is exact across bigint and number
    return (a as number) == (b as number);
  }
  if (ta !== 'object' || tb !== 'object' || a === null || b === null) return false;
  if (isList(a)) return isList(b) && listsEqual(a, b);
  return isMap(a) && isMap(b) && mapsEqual(a, b);
}

function listsEqual(a: unknown[] | ValueList, b: unknown[] | ValueList): boolean {
  const n = listSize(a);
  if (n !== listSize(b)) return false;
  for (let i = 0; i < n; i++) if (!celEquals(listAt(a, i), listAt(b, i))) return false;
  return true;
}

function mapsEqual(a: Record<string, unknown> | ValueMap, b: Record<string, unknown> | ValueMap): boolean {
  if (mapSize(a) !== mapSize(b)) return false;
  for (const key of mapKeys(a)) {
    const other = mapGet(b, key);
    if (other === undefined || !celEquals(mapGet(a, key), other)) return false;
  }
  return true;
}

/** An int result, or the overflow error CEL requires. */
export function checkedInt(value: bigint, operation: string): bigint {
  if (value < MIN_INT || value > MAX_INT) throw new CelFault(`int overflow during ${operation}`);
  return value;
}

/** A double (or int) converted to int: truncated, and an error out of range. */
export function toInt(value: number | bigint | string): bigint {
  if (typeof value === 'bigint') return checkedInt(value, 'type conversion');
  if (typeof value === 'string') {
    let parsed: bigint;
    try {
      parsed = BigInt(value);
    } catch {
      throw new CelFault(`cannot convert '${value}' to int`);
    }
    return checkedInt(parsed, 'type conversion');
  }
  // The bounds are open: 2^63 as a double is already out of range.
  if (Number.isFinite(value) && value > Number(MIN_INT) && value < Number(MAX_INT)) return BigInt(Math.trunc(value));
  throw new CelFault('int overflow during type conversion');
}

/**
 * A CEL value as JSON: ints as numbers (strings beyond 2^53), built lists and maps as arrays
 * and objects. Parts of the document come back as they were read, numbers included.
 */
export function toJson(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') {
    return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (value instanceof ValueList) return value.items.map(toJson);
  if (value instanceof ValueMap) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value.entries) out[String(k)] = toJson(v);
    return out;
  }
  return value;
}
