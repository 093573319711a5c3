// An expression's parse kept as text, to be read back without the CEL engine: the AST (CEL's own
// Expr message as protobuf-es makes it, plain objects) in JSON, and the offset of each node. JSON
// has no form for three of its values, so they are tagged as objects no message can be (a field
// name never starts with `$`): a bigint (every node's id, int and uint constants) as
// {"$int": "12"}, bytes as {"$bytes": base64}, and a double JSON cannot write (NaN, ±Infinity,
// -0) as {"$double": "NaN"}. cel-engine.ts `knownAstOf` checks each decoding equals the parse.
import type { Expr } from './ast.js';

/** `encodeKnownAst`'s text: `{"ast": …, "positions": {id: offset}}`. */
export type KnownAst = string;

export function encodeKnownAst(ast: Expr, positions: Readonly<Record<string, number>>): KnownAst {
  return JSON.stringify({ ast, positions }, (_key, value: unknown) => {
    if (typeof value === 'bigint') return { $int: value.toString() };
    if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString('base64') };
    if (typeof value === 'number' && (!Number.isFinite(value) || Object.is(value, -0))) return { $double: String(Object.is(value, -0) ? '-0' : value) };
    return value;
  });
}

export function decodeKnownAst(text: KnownAst): { ast: Expr; positions: Record<string, number> } {
  const { ast, positions } = JSON.parse(text) as { ast: unknown; positions: Record<string, number> };
  return { ast: untagged(ast) as Expr, positions };
}

/**
 * `value` with every tagged object replaced by what it stands for, in place (it is fresh from
 * JSON.parse; an array's keys are its indexes).
 */
function untagged(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  if (typeof o.$int === 'string') return BigInt(o.$int);
  if (typeof o.$bytes === 'string') return new Uint8Array(Buffer.from(o.$bytes, 'base64'));
  if (typeof o.$double === 'string') return Number(o.$double);
  for (const key of Object.keys(o)) o[key] = untagged(o[key]);
  return o;
}
