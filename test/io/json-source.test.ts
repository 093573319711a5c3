// JSON input files point at line:column: syntax errors where JSON.parse stopped, shape
// problems at the offending value (found with the yaml parser).
import { describe, expect, it } from 'vitest';
import { jsonProblem, parseJsonAt } from '../../src/io/json-source.js';
import { inputProblems as problems } from '../fixtures/input.js';

describe('JSON input files', () => {
  it('a syntax error names its line and column', () => {
    expect(problems(() => parseJsonAt('{\n  "a": 1,\n}', 'b.json', 'baseline'))).toEqual([
      { file: 'b.json', line: 3, column: 1, message: "baseline is not JSON: Expected double-quoted property name" },
    ]);
    expect(problems(() => parseJsonAt('{\n  "a": [1,\n', 'b.json', 'baseline'))).toEqual([
      { file: 'b.json', line: 3, column: 1, message: 'baseline is not JSON: Unexpected end of JSON input' },
    ]);
    expect(parseJsonAt('{"a":[1]}', 'b.json', 'baseline')).toEqual({ a: [1] });
    // V8 leaves the offset out of some messages; the scanner finds it.
    const at = (text: string) => (problems(() => parseJsonAt(text, 'b.json', 'x')) as { line: number; column: number }[])[0];
    expect(at('{"a": x}')).toMatchObject({ line: 1, column: 7 });
    expect(at('[1, 2]\n  3')).toMatchObject({ line: 2, column: 3 });
    expect(at('{"a": "b\\q"}')).toMatchObject({ line: 1, column: 10 });
    expect(at('{"a": [1,]}')).toMatchObject({ line: 1, column: 10 });
  });

  it('a problem with a value points at that value, or its deepest existing ancestor', () => {
    const text = JSON.stringify({ version: 1, answers: [{ operation: 'x', args: [] }, { operation: 'y', pages: 'xyz' }] }, null, 2);
    expect(jsonProblem(text, 's.json', ['answers', 1, 'pages'], 'bad').problems).toEqual([
      { file: 's.json', line: 10, column: 16, message: 'bad' },
    ]);
    expect(jsonProblem(text, 's.json', ['answers', 1, 'value'], 'bad').problems).toEqual([
      { file: 's.json', line: 8, column: 5, message: 'bad' },
    ]);
  });
});
