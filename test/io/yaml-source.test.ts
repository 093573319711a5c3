// The shared YAML source module: positions of syntax errors, nodes and keys, scalar offsets,
// and ajv errors turned into one problem per mistake at the offending node.
import { Ajv } from 'ajv';
import { afterEach, describe, expect, it } from 'vitest';
import { useYamlAnswers, type YamlAnswers, type YamlAnswerStore } from '../../src/io/yaml-answers.js';
import { QUOTE_REFUSED_VALUE, schemaErrors, schemaProblems } from '../../src/io/schema-problems.js';
import {
  collectPaths,
  keyLocationAt,
  keyNodeAt,
  locationAt,
  locationOf,
  nodeAt,
  parseYamlSource,
  pointerPath,
  problemAt,
  recallYamlSource,
  remembered,
  valuePositions,
  yamlData,
} from '../../src/io/yaml-source.js';

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

/** A store in memory, as the CLI's file store keeps answers: by display path and whole text. */
function memoryStore(kept: Map<string, YamlAnswers> = new Map()) {
  const tracked: { file: string; text: string; answers: () => YamlAnswers | null }[] = [];
  const store: YamlAnswerStore = {
    recall: (file, text) => kept.get(`${file}\n${text}`),
    track: (file, text, answers) => tracked.push({ file, text, answers }),
  };
  /** What the run's end would keep: each tracked file's answers, as the next run recalls them. */
  const save = () => {
    for (const t of tracked.splice(0)) {
      const answers = t.answers();
      if (answers) kept.set(`${t.file}\n${t.text}`, new Map(answers));
    }
    return kept;
  };
  return { store, kept, save };
}

describe('pointerPath', () => {
  it('reads a JSON Pointer as a path: escapes undone, whole numbers as indexes', () => {
    expect(pointerPath('')).toEqual([]);
    expect(pointerPath('/a~1b/~0c/12/x1/1x/~01')).toEqual(['a/b', '~c', 12, 'x1', '1x', '~1']);
  });
});

describe('answers kept across runs (recallYamlSource)', () => {
  afterEach(() => useYamlAnswers(null));
  const TEXT = 'top:\n  "42": [x, y]\n  list:\n    - a: 1\n      b: "two"\nk: 1\nempty:\n';
  /** Every question the loaders ask, asked of `source`. */
  const ask = (source: ReturnType<typeof parseYamlSource>) => ({
    data: yamlData(source),
    node: [locationAt(source, ['top', 42, 1]), locationAt(source, ['top', 'list', 0, 'b']), locationAt(source, ['top', 'missing', 0]), locationAt(source, [])],
    key: [keyLocationAt(source, ['top', 'list']), keyLocationAt(source, ['top', 'list', 0, 'a']), keyLocationAt(source, ['nope', 'k']), keyLocationAt(source, ['empty'])],
    problem: problemAt(source, ['k'], 'here'),
    paths: collectPaths(source),
  });

  it('without a store, parses as parseYamlSource does and keeps nothing', () => {
    const source = recallYamlSource(TEXT, 'f.yaml');
    expect(ask(source)).toEqual(ask(parseYamlSource(TEXT, 'f.yaml')));
  });

  it('answers where each path and key is, as the document says', () => {
    const source = parseYamlSource(TEXT, 'f.yaml');
    expect(keyLocationAt(source, ['top', 'list'])).toEqual({ file: 'f.yaml', line: 3, column: 3 });
    expect(keyLocationAt(source, ['top', 'list', 0, 'b'])).toEqual({ file: 'f.yaml', line: 5, column: 7 });
    expect(locationAt(source, ['top', 'list', 0, 'b'])).toEqual({ file: 'f.yaml', line: 5, column: 10 });
    expect(yamlData(parseYamlSource('a:\n  __proto__: 1\n', 'p.yaml')).problems).toEqual([{ file: 'p.yaml', line: 2, column: 3, message: 'the key __proto__ is not allowed' }]);
  });

  it('a run answers as a parse does, and the next run gets the same answers without parsing', () => {
    const { store, save } = memoryStore();
    useYamlAnswers(store);
    const fresh = ask(parseYamlSource(TEXT, 'f.yaml'));
    expect(ask(recallYamlSource(TEXT, 'f.yaml'))).toEqual(fresh);
    const kept = save();
    expect([...kept.keys()]).toEqual([`f.yaml\n${TEXT}`]);
    // Recalled: every answer is the kept one (the document is never parsed: a parse would throw here).
    const recalled = recallYamlSource(TEXT, 'f.yaml');
    Object.defineProperty(recalled, 'doc', { get: () => { throw new Error('parsed'); } });
    expect(ask(recalled)).toEqual(fresh);
    expect(recalled.problems).toEqual([]);
  });

  it('recalls answers only for the very text read as the very file', () => {
    const { store, save } = memoryStore();
    useYamlAnswers(store);
    ask(recallYamlSource(TEXT, 'f.yaml'));
    save();
    const edited = TEXT.replace('k: 1', 'k: 2');
    expect(yamlData(recallYamlSource(edited, 'f.yaml')).data).toMatchObject({ k: 2 });
    expect(locationAt(recallYamlSource(TEXT, 'g.yaml'), ['k'])).toEqual({ file: 'g.yaml', line: 6, column: 4 });
  });

  it('a kept answer is what is answered: the store is trusted, as the code cache is', () => {
    const planted = new Map([['f.yaml\nk: 1\n', new Map([['node ["k"]', JSON.stringify({ file: 'f.yaml', line: 99, column: 9 })]])]]);
    const { store, save } = memoryStore(planted);
    useYamlAnswers(store);
    const source = recallYamlSource('k: 1\n', 'f.yaml');
    expect(locationAt(source, ['k'])).toEqual({ file: 'f.yaml', line: 99, column: 9 });
    // A question no run asked parses the document then.
    expect(keyLocationAt(source, ['k'])).toEqual({ file: 'f.yaml', line: 1, column: 1 });
    // The new answer is kept with the recalled ones.
    expect(save().get('f.yaml\nk: 1\n')).toEqual(new Map([['node ["k"]', JSON.stringify({ file: 'f.yaml', line: 99, column: 9 })], ['key ["k"]', JSON.stringify({ file: 'f.yaml', line: 1, column: 1 })]]));
    // A damaged answer is asked again, never a crash.
    planted.get('f.yaml\nk: 1\n')!.set('data', '{');
    expect(yamlData(recallYamlSource('k: 1\n', 'f.yaml'))).toEqual({ data: { k: 1 }, problems: [] });
  });

  it('whether a file is valid against a schema is kept: recalled valid, the validator is neither made nor run; invalid, its errors are asked each time', () => {
    const { store, save } = memoryStore();
    useYamlAnswers(store);
    const made: string[] = [];
    const validator = () => {
      made.push('made');
      return ajv.compile({ type: 'object', properties: { k: { type: 'integer' } } });
    };
    const errorsOf = (text: string) => {
      const source = recallYamlSource(text, 'f.yaml');
      return schemaErrors(source, 'the test schema', validator, yamlData(source).data)?.map((e) => `${e.instancePath} ${e.message}`) ?? null;
    };
    expect([errorsOf('k: 1\n'), errorsOf('k: x\n'), made.length]).toEqual([null, ['/k must be integer'], 2]);
    expect(save().get('f.yaml\nk: 1\n')?.get('valid against the test schema')).toBe('true');
    made.length = 0;
    expect([errorsOf('k: 1\n'), made]).toEqual([null, []]);
    // Kept as invalid (a store says so): the errors are the validator's, asked again.
    const planted = new Map([['f.yaml\nk: x\n', new Map([['valid against the test schema', 'false']])]]);
    useYamlAnswers(memoryStore(planted).store);
    expect([errorsOf('k: x\n'), made]).toEqual([['/k must be integer'], ['made']]);
  });

  it('each caller gets its own copy of an answer, kept as it was computed', () => {
    const { store, save } = memoryStore();
    useYamlAnswers(store);
    const first = yamlData(recallYamlSource('a: [1]\n', 'f.yaml')).data as { a: number[] };
    first.a.push(2);
    save();
    const source = recallYamlSource('a: [1]\n', 'f.yaml');
    const again = yamlData(source).data as { a: number[] };
    expect(again).toEqual({ a: [1] });
    again.a.push(3);
    expect(yamlData(source).data).toEqual({ a: [1] });
  });

  it('keeps nothing about a file with syntax problems, or with a value JSON cannot carry exactly', () => {
    const { store, save } = memoryStore();
    useYamlAnswers(store);
    for (const [file, text] of [['bad.yaml', 'a: 1\na: 2\n'], ['nan.yaml', 'x: .nan\n'], ['inf.yaml', 'x: [-.inf]\n'], ['zero.yaml', 'x: -0\n']]) {
      const source = recallYamlSource(text, file);
      yamlData(source);
      locationAt(source, ['x']);
    }
    expect([...save().keys()]).toEqual([]);
    // Answered all the same, each exactly.
    expect(Object.is((yamlData(recallYamlSource('x: -0\n', 'zero.yaml')).data as { x: number }).x, -0)).toBe(true);
    expect(recallYamlSource('a: 1\na: 2\n', 'bad.yaml').problems).toHaveLength(1);
  });

  it('keeps no answer that JSON would carry back as something else', () => {
    for (const odd of [new Date(0), { at: new Date(0) }, [new Map()], Object.create(null) as object, { n: 1n }, { u: undefined }]) {
      const { store, save } = memoryStore();
      useYamlAnswers(store);
      const source = recallYamlSource('a: 1\n', 'f.yaml');
      expect(remembered(source, 'odd', () => odd)).toBe(odd);
      expect([...save().keys()]).toEqual([]);
    }
  });

  it('remembered answers a source parseYamlSource read each time, keeping nothing', () => {
    const source = parseYamlSource('a: 1\n', 'f.yaml');
    let calls = 0;
    const answer = () => remembered(source, 'q', () => ++calls);
    expect([answer(), answer()]).toEqual([1, 2]);
  });
});
