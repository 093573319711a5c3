// The compiled evaluator on what conformance data does not cover: JSON documents read as they
// are (whole numbers ints, the rest doubles, no prototype keys), the built-in pack compiled, the
// reference evaluator where the closures stop, and random documents through both evaluators.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { celStats, EvaluationError } from '../../src/policy/cel.js';
import { EVALUATION_STEPS_PER_EXPRESSION, metered } from '../../src/policy/cost.js';
import { loadCompiledPolicies } from '../../src/policy/policy-set.js';
import { KINDS } from '../fixtures/kinds.js';
import { compile, outcome } from './cel-outcome.js';

describe('compiled closures on JSON documents', () => {
  const resource = { whole: 3, half: 3.5, big: 2 ** 60, name: 'héllo', list: [1, 2.5, 'x'], nested: { k: null }, empty: {} };

  it.each([
    ['resource.whole / 2', 1],
    ['resource.half / 2.0', 1.75],
    ['resource.whole + 1', 4],
    ['resource.list[1] == 2.5', true],
    ['resource.list[0] == 1.0', true],
    ['size(resource.name)', 5],
    ['resource.name.startsWith("hé") && resource.name.endsWith("lo") && resource.name.contains("ll")', true],
    ['resource.name.matches("^h.llo$")', true],
    // As @bufbuild/cel has it: a key holding null is absent for has() and `in`, yet reads as null.
    ['!has(resource.nested.k) && resource.nested.k == null && !("k" in resource.nested)', true],
    ['has(resource.constructor) || has(resource.empty.toString)', false],
    ['"x" in resource.list && !(3 in resource.list)', true],
    ['"whole" in resource && !("valueOf" in resource)', true],
    ['resource.list.map(x, type(x) == string ? 0 : 1).size()', 3],
    ['resource.list.filter(x, x == 1)', [1]],
    ['resource.big', '1152921504606846976'],
    ['[resource.whole, 2.0]', [3, 2]],
    ['{"a": resource.half}', { a: 3.5 }],
    ['int(resource.half) + int("7")', 10],
    ['string(resource.whole) + string(resource.half)', '33.5'],
    ['params.max >= resource.whole', true],
    ['isTimeZone("Europe/Berlin") && !isTimeZone("Mars/Olympus")', true],
  ])('%s', (source, expected) => {
    expect(outcome(source, { resource, params: { max: 3 } })).toEqual({ value: expected });
    expect(outcome(source, { resource, params: { max: 3 } }, 'reference')).toEqual({ value: expected });
  });

  it.each([
    ['resource.missing', 'field not found: missing'],
    ['resource.constructor', 'field not found: constructor'],
    ['resource.whole + resource.half', "found no matching overload for '_+_' applied to '(int, double)'"],
    ['resource.whole / 0', 'int divide by zero'],
    ['resource.big * resource.big', 'int overflow during _*_'],
    ['resource.list[3]', 'index 3 out of bounds [0, 3)'],
  ])('%s is an error: %s', (source, message) => {
    expect(outcome(source, { resource, params: {} })).toEqual({ error: message });
  });

  it('absorbs an error only where the other side decides, like the reference', () => {
    for (const source of ['resource.missing || true', 'true || resource.missing', 'resource.missing && false', 'resource.list.exists(x, x > 2)']) {
      expect(outcome(source, { resource, params: {} }), source).toEqual(outcome(source, { resource, params: {} }, 'reference'));
    }
    expect(outcome('resource.missing || true', { resource, params: {} })).toEqual({ value: true });
    expect(outcome('resource.list.exists(x, x > 2)', { resource, params: {} })).toEqual({ value: true });
    expect(outcome('resource.list.all(x, x > 2)', { resource, params: {} })).toEqual({ value: false });
    expect(outcome('resource.missing || false', { resource, params: {} })).toEqual({ error: 'field not found: missing' });
  });

  // A non-boolean operand of && or || is an error on either side (a pass would be a wrong verdict).
  it.each(['resource.name && true', 'true && resource.name', 'resource.whole || false', 'false || resource.list'])(
    '%s is an evaluation error in both evaluators',
    (source) => {
      expect(outcome(source, { resource, params: {} })).toEqual({ error: expect.stringMatching(/^found no matching overload for '_(&&|\|\|)_'/) });
      expect(outcome(source, { resource, params: {} }, 'reference')).toEqual({ error: expect.any(String) });
    },
  );

  it('leaves to the reference evaluator what it does not cover, and says which ran', () => {
    expect(compile('resource.whole > 1').engine).toBe('closures');
    expect(compile('now > timestamp("2020-01-01T00:00:00Z")').engine).toBe('reference');
    expect(compile('resource.whole > 1u').engine).toBe('reference');
    expect(compile('resource.whole > 1', 'reference').engine).toBe('reference');
    expect(outcome('timestamp(resource.name) > now', { resource, params: {}, now: new Date() })).toEqual({
      error: expect.stringMatching(/^Failed to parse timestamp/),
    });
  });

  it('covers the clock as int(now) only (epoch seconds, as the reference), and leaves any other use of now to the reference', () => {
    const now = new Date('2025-06-01T00:00:30.900Z');
    const source = 'int(now) * 1000 - resource.whole';
    expect(compile(source).engine).toBe('closures');
    expect(outcome(source, { resource: { whole: 500 }, params: {}, now })).toEqual({ value: 1748736030000 - 500 });
    expect(outcome(source, { resource: { whole: 500 }, params: {}, now }, 'reference')).toEqual({ value: 1748736030000 - 500 });
    expect(compile('int(now) > 0 && now > timestamp("2020-01-01T00:00:00Z")').engine).toBe('reference');
    // Only that very shape: another function of now, or int of something else beside a use of now.
    expect(compile('string(now) != ""').engine).toBe('reference');
    expect(compile('resource.list.all(x, int(x) >= 0) && now > timestamp("2020-01-01T00:00:00Z")').engine).toBe('reference');
    expect(compile('int(resource.whole) > 0 && now > timestamp("2020-01-01T00:00:00Z")').engine).toBe('reference');
  });

  it('counts loop iterations against the same budget as the reference', () => {
    const expr = compile('resource.list.all(a, resource.list.all(b, true))');
    expect(expr.engine).toBe('closures');
    const big = { list: Array.from({ length: 400 }, (_, i) => i), name: '' };
    expect(() => expr.evaluate({ resource: big })).toThrow(
      new EvaluationError(`evaluation budget exceeded: more than ${EVALUATION_STEPS_PER_EXPRESSION} loop iterations in one expression`, expr.source),
    );
    const budget = { remaining: 1_000 };
    const small = { list: Array.from({ length: 20 }, (_, i) => i) };
    expect(metered(() => 0, budget)).toEqual({ value: 0 });
    expect(expr.evaluate({ resource: small }, budget)).toBe(true);
    expect(budget.remaining).toBe(1_000 - (20 + 20 * 20));
  });

  it('compiles every expression of the built-in pack to closures, once each', async () => {
    // Loading compiles each policy once; compiling a source again reuses that program.
    const policies = (await loadCompiledPolicies(['builtin'], { kinds: KINDS })).map((p) => p.def);
    const before = celStats.compilations;
    const sources = policies.flatMap((p) => [p.each, p.when, p.assert].filter((s): s is string => typeof s === 'string'));
    expect(sources.length).toBeGreaterThanOrEqual(25);
    for (const source of sources) expect(compile(source).engine, source).toBe('closures');
    expect(celStats.compilations).toBe(before);
  });
});

/** JSON values the way an API answers: whole numbers, fractions, strings, nulls, lists, objects. */
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.integer({ min: -5, max: 5 }),
    fc.constantFrom(0.5, -2.25, 1e300),
    fc.constantFrom('', 'a', 'USER', 'ADMIN', 'Europe/Berlin'),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'type', 'n'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const EXPRESSIONS = [
  'resource.a == resource.b',
  'resource.a < resource.b || resource.n > 0',
  'has(resource.a) && resource.a != null',
  'resource.a in resource.b',
  'size(resource.a) > 1',
  'resource.a + resource.b',
  'resource.a - resource.n * 2',
  'resource.a / resource.n',
  'resource.a % resource.n',
  '-resource.n',
  'resource.a.exists(x, x == resource.n)',
  'resource.b.all(x, x.type == "USER")',
  'resource.a.map(x, x)',
  'resource.b.filter(x, x != null)',
  'resource.a.exists_one(x, x == 1)',
  'resource.a[0] == resource.b["a"]',
  '!resource.a ? resource.b : resource.n',
  'resource.type.startsWith("U") && resource.type.matches("^[A-Z]+$")',
  '[resource.a, resource.b] == [resource.b, resource.a]',
  '{"k": resource.a} == {"k": resource.b}',
  'int(resource.n) + double(resource.a) > 0.0',
  'string(resource.a) == "1"',
];

describe('compiled closures against the reference on random documents', () => {
  it.each(EXPRESSIONS)('%s', (source) => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('a', 'b', 'type', 'n'), json, { maxKeys: 4 }), (resource) => {
        const compiled = outcome(source, { resource, params: {} });
        const reference = outcome(source, { resource, params: {} }, 'reference');
        // Both fail or both give the same JSON; error wording may differ.
        expect('error' in compiled ? 'error' : compiled).toEqual('error' in reference ? 'error' : reference);
      }),
      { numRuns: 300 },
    );
  });
});
