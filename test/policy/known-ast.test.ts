// An expression's AST kept as text (the built-in pack's): read back without the CEL engine, equal
// to the parser's message for message, also where JSON has no form for a value.
import { parse } from '@bufbuild/cel';
import { ExprSchema } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { equals } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { knownAstOf } from '../../src/policy/cel-engine.js';
import { decodeKnownAst, encodeKnownAst } from '../../src/policy/known-ast.js';

describe('known ASTs', () => {
  it("round-trips what JSON cannot write: ids and ints as bigints, bytes, NaN, ±Infinity and -0", () => {
    const ast = { id: 9007199254740993n, values: [18446744073709551615n, -5n, new Uint8Array([0, 255]), Number.NaN, Infinity, -Infinity, -0, 0, 1.5, 'x', null, true] };
    const text = encodeKnownAst(ast as never, { '9007199254740993': 4 });
    expect(text).toBe(
      '{"ast":{"id":{"$int":"9007199254740993"},"values":[{"$int":"18446744073709551615"},{"$int":"-5"},{"$bytes":"AP8="},{"$double":"NaN"},{"$double":"Infinity"},{"$double":"-Infinity"},{"$double":"-0"},0,1.5,"x",null,true]},"positions":{"9007199254740993":4}}',
    );
    const back = decodeKnownAst(text) as unknown as { ast: { id: bigint; values: unknown[] }; positions: Record<string, number> };
    expect(back.ast.id).toBe(9007199254740993n);
    expect(back.ast.values.slice(0, 3)).toEqual([18446744073709551615n, -5n, new Uint8Array([0, 255])]);
    expect(back.ast.values[2]).toBeInstanceOf(Uint8Array);
    expect(back.ast.values.slice(3)).toEqual([Number.NaN, Infinity, -Infinity, -0, 0, 1.5, 'x', null, true]);
    expect(Object.is(back.ast.values[6], -0)).toBe(true);
    expect(Object.is(back.ast.values[7], 0)).toBe(true);
    expect(back.positions).toEqual({ '9007199254740993': 4 });
  });

  it("keeps every constant kind the parser makes, checked against the parser's own message", () => {
    const source = "b'\\x00\\xff' != b'' && 1e999 > 0.0 && -0.0 == 0.0 && 18446744073709551615u > 0u && -9223372036854775808 < 0 && null == null && 'é' != '' && [1, {'a': 2}][0] == 1";
    const { ast, positions } = decodeKnownAst(knownAstOf(source));
    expect(equals(ExprSchema, ast, parse(source).expr!)).toBe(true);
    expect(Object.keys(positions).length).toBeGreaterThan(20);
    // Any difference fails: the decoding is compared, not trusted.
    const other = decodeKnownAst(knownAstOf(source.replace('0u', '1u'))).ast;
    expect(equals(ExprSchema, other, parse(source).expr!)).toBe(false);
  });
});
