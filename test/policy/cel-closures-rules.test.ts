// The compiled evaluator's rules that the conformance cases and random documents leave unpinned,
// each checked against the reference evaluator and to the exact result or message: variables
// and their defaults, comparisons with a constant on either side (exact beyond 2^53), has() inside
// a comparison, maps and field selection, && and || naming the operand at fault, the ternary's
// condition, and the loop budget a short-circuiting macro spends.
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/policy/cel.js';
import { compile, type Outcome, outcome } from './cel-outcome.js';

const resource = { whole: 3, half: 3.5, big: 2 ** 60, neg: -(2 ** 60), name: 'x', toString: 'own', flag: null, list: [1, 2, 3], zero: 0, one: 1 };

/** The compiled result, checked to run as closures; the reference's value where it agrees. */
function closures(source: string, bindings: Bindings = { resource }): Outcome {
  expect(compile(source).engine, source).toBe('closures');
  return outcome(source, bindings);
}

describe('compiled closures: values', () => {
  it.each([
    // A constant on the left of an order test, and on the right.
    ['5 > resource.whole', true],
    ['1 >= resource.half', false],
    ['resource.whole < 5', true],
    // Beyond 2^53 a constant is not exact as a number: compared as CEL ints, not as doubles.
    ['resource.big == 1152921504606846977', false],
    ['resource.big != 1152921504606846977', true],
    ['resource.big < 1152921504606846977', true],
    ['resource.neg == -1152921504606846977', false],
    ['resource.big == 1152921504606846976', true],
    // A null or bool constant is never equal to a number (0 is not null, 1 is not true).
    ['resource.zero == null', false],
    ['resource.one == true', false],
    ['resource.zero != false', true],
    // has() inside a comparison is a bool, not the field's value.
    ['has(resource.whole) == true', true],
    ['has(resource.flag) == false', true],
    // A plain key that Object.prototype also names is read as the document's own.
    ['resource.toString == "own"', true],
    ['{"a": resource.whole}.a == 3', true],
    ['has({"k": null}.k)', false],
    ['has(params.max)', false],
  ])('%s', (source, expected) => {
    const bindings = { resource };
    expect(closures(source, bindings)).toEqual({ value: expected });
    expect(outcome(source, bindings, 'reference')).toEqual({ value: expected });
  });
});

describe('compiled closures: errors, word for word', () => {
  it.each([
    ['resource.name && true', "found no matching overload for '_&&_' applied to '(string)'"],
    ['true && resource.name', "found no matching overload for '_&&_' applied to '(string)'"],
    ['false || resource.missing', 'field not found: missing'],
    ['true && resource.missing', 'field not found: missing'],
    ['resource.name ? 1 : 2', "found no matching overload for '_?_:_' applied to '(string)'"],
    ['{"a": 1}.b', 'field not found: b'],
    ['resource.whole.x', "type 'int' does not support field selection"],
    ['resource.whole.all(x, true)', 'type mismatch: iterable vs int'],
    ['{resource.half: 1}', 'unsupported key type'],
    ['{resource.name: 1, "x": 2}', 'map key conflict: x'],
  ])('%s: %s', (source, message) => {
    expect(closures(source)).toEqual({ error: message });
  });

  it('a call of an arity the closures do not have runs on the reference evaluator', () => {
    for (const source of ['size("a", "b")', 'resource.name.startsWith()']) {
      expect(compile(source).engine, source).toBe('reference');
      expect(outcome(source, { resource })).toEqual({ error: expect.stringMatching(/^found no matching overload/) });
    }
  });

  it('a variable without a binding is an error; params defaults to {}', () => {
    expect(closures('resource.whole', { params: {} })).toEqual({ error: "unbound variable 'resource'" });
    expect(closures('has(params.max) || resource.whole == 3', { resource })).toEqual({ value: true });
  });
});

describe('compiled closures: the loop budget', () => {
  it('a macro that has decided stops: exists spends its steps up to the first match, all up to the first miss', () => {
    const spent = (source: string) => {
      const budget = { remaining: 1_000 };
      const value = compile(source).evaluate({ resource }, budget);
      return [value, 1_000 - budget.remaining];
    };
    expect(spent('resource.list.exists(x, x == 1)')).toEqual([true, 2]);
    expect(spent('resource.list.all(x, x > 1)')).toEqual([false, 2]);
    expect(spent('resource.list.all(x, x > 0)')).toEqual([true, 3]);
  });
});
