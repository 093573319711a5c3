// The shared YAML source module: positions of syntax errors, nodes and keys, scalar offsets,
// and ajv errors turned into one problem per mistake at the offending node.
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { QUOTE_REFUSED_VALUE, schemaProblems } from '../../src/io/schema-problems.js';
import { keyNodeAt, locationOf, nodeAt, parseYamlSource, valuePositions } from '../../src/io/yaml-source.js';

const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });

describe('parseYamlSource', () => {
  it('reports syntax errors and unresolved tags at their position, with the caller’s label', () => {
    expect(parseYamlSource('a: 1\na: 2\n', 'f.yaml').problems).toEqual([
      { file: 'f.yaml', line: 2, column: 1, message: 'invalid YAML: Map keys must be unique' },
    ]);
    expect(parseYamlSource('a: !x b\n', 'f.yaml', 'YAML syntax error').problems).toEqual([
      { file: 'f.yaml', line: 1, column: 4, message: 'YAML syntax error: Unresolved tag: !x' },
    ]);
    expect(parseYamlSource('a: *\n', 'f.yaml').problems[0].message).toMatch(/quote a value that starts with \*/);
  });
});

describe('nodes and keys', () => {
  const src = parseYamlSource('top:\n  "42": [x, y]\nk: 1\n', 'f.yaml');
  const at = (node: ReturnType<typeof nodeAt>) => locationOf(src, node);

  it('finds a value, a quoted numeric key by its number, and the deepest ancestor of a missing path', () => {
    expect(at(nodeAt(src, ['top', 42, 1]))).toEqual({ file: 'f.yaml', line: 2, column: 13 });
    expect(at(nodeAt(src, ['top', 'missing', 0]))).toEqual({ file: 'f.yaml', line: 2, column: 3 });
  });

  it('finds a key only in its own map, never a same-named key of an ancestor', () => {
    expect(at(keyNodeAt(src, ['top', '42']))).toEqual({ file: 'f.yaml', line: 2, column: 3 });
    expect(at(keyNodeAt(src, ['top', 'k']))).toEqual({ file: 'f.yaml', line: 2, column: 3 });
    expect(at(keyNodeAt(src, ['nope', 'k']))).toEqual({ file: 'f.yaml', line: 1, column: 1 });
  });

  it('maps offsets inside quoted and block scalars to file positions', () => {
    const s = parseYamlSource('a: "xy z"\nb: |\n  one\n  two\n', 'f.yaml');
    expect(valuePositions(s, nodeAt(s, ['a']))?.(3)).toEqual({ file: 'f.yaml', line: 1, column: 8 });
    expect(valuePositions(s, nodeAt(s, ['b']))?.(5)).toEqual({ file: 'f.yaml', line: 4, column: 4 });
    expect(valuePositions(s, nodeAt(s, []))).toBeUndefined();
  });
});

describe('schemaProblems', () => {
  const problems = (schema: object, text: string, wording = {}) => {
    const src = parseYamlSource(text, 'f.yaml');
    const validate = ajv.compile(schema);
    validate(src.doc.toJS());
    return schemaProblems(src, validate.errors, wording).map((p) => `${p.line}:${p.column} ${p.message}`);
  };
  const list = { description: 'a list of names', anyOf: [{ type: 'array', items: { type: 'string', minLength: 1 } }, { type: 'null' }] };

  it('1,000 values failing one anyOf are a problem each, in the document\'s order', () => {
    const schema = { type: 'object', properties: { names: { type: 'array', items: list } } };
    const text = `names:\n${Array.from({ length: 1000 }, (_, i) => (i % 2 ? '  - [""]\n' : '  - 3\n')).join('')}`;
    const expected = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `${i + 2}:6 names[${i}][0] must NOT have fewer than 1 characters` : `${i + 2}:5 names[${i}] must be a list of names`));
    expect(problems(schema, text)).toEqual(expected);
  });

  it('keeps the errors of two values checked by one anyOf apart', () => {
    const schema = { type: 'object', additionalProperties: list };
    expect(problems(schema, 'a: 3\nb: [""]\n')).toEqual(['1:4 a must be a list of names', '2:5 b[0] must NOT have fewer than 1 characters']);
  });

  it('without a description, an anyOf says what its first branch wanted', () => {
    const schema = { type: 'object', properties: { id: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } };
    expect(problems(schema, 'id: true\n')).toEqual(['1:5 id must be string']);
  });

  it('points an unknown key at the key with what is allowed, and names every missing key', () => {
    const schema = { type: 'object', additionalProperties: false, required: ['a', 'b'], properties: { a: {}, b: {} } };
    expect(problems(schema, 'x: 1\n')).toEqual([
      '1:1 missing required key "a"',
      '1:1 missing required key "b"',
      '1:1 unknown key "x" (allowed: a, b)',
    ]);
  });

  it('QUOTE_REFUSED_VALUE also quotes the refused value of an enum', () => {
    const schema = { type: 'object', properties: { t: { enum: ['A', 'B'] } } };
    expect(problems(schema, 't: C\n')).toEqual(['1:4 t must be one of: A, B']);
    expect(problems(schema, 't: C\n', QUOTE_REFUSED_VALUE)).toEqual(['1:4 t must be one of A, B (got "C")']);
  });
});
