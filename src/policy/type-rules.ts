// What CEL's operators accept of two static types (typecheck.ts asks), and how a type is named in
// a load error's message. A pair is refused only when no combination of its possible kinds works.
import { type CelType, DYN, type Kind } from './schema-types.js';

export const NUMERIC: ReadonlySet<Kind> = new Set(['int', 'uint', 'double']);
const ORDERED: ReadonlySet<Kind> = new Set(['string', 'bytes', 'bool', 'timestamp', 'duration']);

/** What `a op b` of two kinds other than numbers yields, by `"a op b"`. */
const ARITHMETIC: Readonly<Record<string, Kind>> = {
  'string + string': 'string',
  'bytes + bytes': 'bytes',
  'list + list': 'list',
  'timestamp + duration': 'timestamp',
  'duration + timestamp': 'timestamp',
  'duration + duration': 'duration',
  'timestamp - timestamp': 'duration',
  'timestamp - duration': 'timestamp',
  'duration - duration': 'duration',
};

/** The kinds `a op b` can have (none: the operator refuses the pair). */
export function arithmeticResult(op: string, a: Kind, b: Kind): Kind[] {
  if (NUMERIC.has(a) && NUMERIC.has(b)) return a === b ? [a] : [a, b];
  const pair = `${a} ${op} ${b}`;
  return Object.hasOwn(ARITHMETIC, pair) ? [ARITHMETIC[pair]] : [];
}

/** `==`/`!=`: same kind, numbers with numbers, null with anything. */
export function equalable(a: Kind, b: Kind): boolean {
  return a === b || a === 'null' || b === 'null' || (NUMERIC.has(a) && NUMERIC.has(b));
}

/** `<` and friends: numbers with numbers, or the same ordered kind (null with anything, as documented). */
export function orderable(a: Kind, b: Kind): boolean {
  return a === 'null' || b === 'null' || (NUMERIC.has(a) && NUMERIC.has(b)) || (a === b && ORDERED.has(a));
}

/**
 * Unknown on either side passes, and so does a side that can only be null (`x == null`);
 * otherwise some pair of the non-null kinds must work, so a nullable field is still checked
 * against what it holds when it is not null.
 */
export function compatible(a: CelType | undefined, b: CelType | undefined, ok: (x: Kind, y: Kind) => boolean): boolean {
  if (!a || !b || a.kinds === null || b.kinds === null) return true;
  const xs = [...a.kinds].filter((k) => k !== 'null');
  const ys = [...b.kinds].filter((k) => k !== 'null');
  if (xs.length === 0 || ys.length === 0) return true;
  for (const x of xs) for (const y of ys) if (ok(x, y)) return true;
  return false;
}

/** `t` with null taken out (the branch a `x != null` guard leads to). */
export function withoutNull(t: CelType): CelType {
  if (t.kinds === null || !t.kinds.has('null')) return t;
  return { ...t, kinds: new Set([...t.kinds].filter((k) => k !== 'null')) };
}

/** A value of any of `types` (dyn when one of them is). */
export function union(types: CelType[]): CelType {
  if (types.some((t) => t.kinds === null)) return DYN;
  return { kinds: new Set(types.flatMap((t) => [...t.kinds!])) };
}

/** `int`, `string or null`; for numbers alone `a number` when `plain` (bool/list expectations). */
export function describe(t: CelType, plain = false): string {
  if (t.kinds === null) return 'dyn';
  const kinds = [...t.kinds];
  const values = kinds.filter((k) => k !== 'null');
  if (plain && values.length > 0 && values.every((k) => NUMERIC.has(k))) return values.length < kinds.length ? 'a number or null' : 'a number';
  return kinds.join(' or ');
}
