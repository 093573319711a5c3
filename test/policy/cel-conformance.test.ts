// The compiled evaluator against the official CEL conformance data (cel-spec, as @bufbuild/cel-spec
// ships it) and against the reference evaluator (@bufbuild/cel). Every case inside the language
// the compiler covers runs through both; a case is skipped only for a reason counted below.
import { celEnv, isCelError, isCelList, isCelMap, parse, plan } from '@bufbuild/cel';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { getConformanceSuite, type IncrementalTest, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { describe, expect, it } from 'vitest';
import { compileClosures } from '../../src/policy/cel-closures.js';
import { CelFault, type MapKey, ValueList, ValueMap } from '../../src/policy/cel-values.js';

/** Cases whose expected answer this compiler deliberately does not give, and why. */
const DEVIATIONS: Readonly<Record<string, string>> = {};

class Skip {
  constructor(readonly reason: string) {}
}

/** A conformance Value as the compiled evaluator's value (lists and maps as built values). */
function compiledValue(v: Value): unknown {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'int64Value':
    case 'doubleValue':
    case 'stringValue':
      return k.value;
    case 'listValue':
      return new ValueList(k.value.values.map(compiledValue));
    case 'mapValue': {
      const entries = new Map<MapKey, unknown>();
      for (const e of k.value.entries) {
        const key = compiledValue(e.key ?? fail('map entry without key'));
        if (typeof key !== 'bigint' && typeof key !== 'string' && typeof key !== 'boolean') throw new Skip(`map key ${typeof key}`);
        entries.set(key, compiledValue(e.value ?? fail('map entry without value')));
      }
      return new ValueMap(entries);
    }
    default:
      throw new Skip(`${String(k.case)} values`);
  }
}

/** The same Value as the reference evaluator takes it (lists as arrays, maps as native maps). */
function referenceValue(v: Value): unknown {
  const k = v.kind;
  if (k.case === 'listValue') return k.value.values.map(referenceValue);
  if (k.case === 'mapValue') return new Map(k.value.entries.map((e) => [referenceValue(e.key as Value), referenceValue(e.value as Value)]));
  return compiledValue(v);
}

/** A reference result in the compiled evaluator's terms, to compare the two. */
function fromReference(v: unknown): unknown {
  if (isCelList(v)) return new ValueList([...v].map(fromReference));
  if (isCelMap(v)) {
    const entries = new Map<MapKey, unknown>();
    for (const [key, value] of v) entries.set(key as MapKey, fromReference(value));
    return new ValueMap(entries);
  }
  return v;
}

function fail(message: string): never {
  throw new Error(message);
}

/** Equal in type and value (1 is not 1.0 here; NaN is NaN), lists and maps deeply. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Object.is(a, b) || a === b;
  if (a instanceof ValueList) return b instanceof ValueList && a.items.length === b.items.length && a.items.every((x, i) => same(x, b.items[i]));
  if (a instanceof ValueMap) {
    if (!(b instanceof ValueMap) || a.entries.size !== b.entries.size) return false;
    return [...a.entries].every(([key, value]) => b.entries.has(key) && same(value, b.entries.get(key)));
  }
  return a === b;
}

type Outcome = { value: unknown } | { error: string };

function outcomeText(o: Outcome): string {
  if ('error' in o) return `error(${o.error})`;
  const json = (v: unknown): unknown =>
    v instanceof ValueList ? v.items.map(json) : v instanceof ValueMap ? Object.fromEntries([...v.entries].map(([k, x]) => [String(k), json(x)])) : typeof v === 'bigint' ? `${v}n` : v;
  return JSON.stringify(json(o.value));
}

function agree(a: Outcome, b: Outcome): boolean {
  return 'error' in a ? 'error' in b : 'value' in b && same(a.value, b.value);
}

const referenceEnv = celEnv();

/** Runs one case; a Skip says why it is outside the subset. */
function runCase(test: IncrementalTest): { expected: Outcome; compiled: Outcome; reference: Outcome } {
  const t = test.original;
  if (t.checkOnly) throw new Skip('type-check only');
  // Policies have no container, so no name resolves through one.
  if (t.container && Object.keys(t.bindings).some((name) => name.includes('.'))) throw new Skip('names resolved through a container');
  if (t.disableMacros) throw new Skip('macros disabled');
  const matcher = t.resultMatcher;
  let expected: Outcome;
  // No matcher means the expression must be true.
  if (matcher.case === undefined) expected = { value: true };
  else if (matcher.case === 'value') expected = { value: compiledValue(matcher.value) };
  else if (matcher.case === 'evalError' || matcher.case === 'anyEvalErrors') expected = { error: 'any' };
  else throw new Skip(`expects ${String(matcher.case)}`);
  const compiledBindings: Record<string, unknown> = {};
  const referenceBindings: Record<string, unknown> = {};
  for (const [name, bound] of Object.entries(t.bindings)) {
    if (bound.kind.case !== 'value') throw new Skip(`a binding of kind ${String(bound.kind.case)}`);
    compiledBindings[name] = compiledValue(bound.kind.value);
    referenceBindings[name] = referenceValue(bound.kind.value);
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(t.expr);
  } catch {
    throw new Skip('the parser of @bufbuild/cel rejects it');
  }
  const program = compileClosures(parsed.expr, { variables: Object.keys(compiledBindings) });
  if ('unsupported' in program) throw new Skip(`outside the subset: ${program.unsupported}`);
  let compiled: Outcome;
  try {
    compiled = { value: program.run(compiledBindings) };
  } catch (e) {
    if (!(e instanceof CelFault)) throw e;
    compiled = { error: e.message };
  }
  const env = t.container ? celEnv({ namespace: t.container }) : referenceEnv;
  const result = plan(env, parsed)(referenceBindings as Parameters<ReturnType<typeof plan>>[0]);
  const reference: Outcome = isCelError(result) ? { error: result.message } : { value: fromReference(result) };
  return { expected, compiled, reference };
}

function* casesOf(suite: IncrementalTestSuite, path: string[] = []): Generator<[string, IncrementalTest]> {
  for (const test of suite.tests) yield [[...path, suite.name, test.name].join('/'), test];
  for (const inner of suite.suites) yield* casesOf(inner, [...path, suite.name]);
}

describe('cel-spec conformance of the compiled evaluator', () => {
  it('gives the expected answer on every case it covers, and the reference evaluator agrees', () => {
    const skipped = new Map<string, number>();
    const failures: string[] = [];
    const referenceDisagrees: string[] = [];
    let total = 0;
    let run = 0;
    let passed = 0;
    for (const [name, test] of casesOf(getConformanceSuite())) {
      total++;
      let outcome: ReturnType<typeof runCase>;
      try {
        outcome = runCase(test);
      } catch (e) {
        if (!(e instanceof Skip)) throw e;
        skipped.set(e.reason, (skipped.get(e.reason) ?? 0) + 1);
        continue;
      }
      if (DEVIATIONS[name]) {
        skipped.set(`deviation: ${DEVIATIONS[name]}`, (skipped.get(`deviation: ${DEVIATIONS[name]}`) ?? 0) + 1);
        continue;
      }
      run++;
      const { expected, compiled, reference } = outcome;
      if (agree(expected, compiled)) passed++;
      else failures.push(`${name}: ${test.original.expr} → ${outcomeText(compiled)}, expected ${outcomeText(expected)}`);
      if (!agree(compiled, reference)) referenceDisagrees.push(`${name}: compiled ${outcomeText(compiled)}, reference ${outcomeText(reference)}`);
    }
    const reasons = [...skipped].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `  ${n} × ${reason}`);
    console.log(
      [
        `cel-spec conformance: ${total} cases; ${run} run through the compiled and the reference evaluator, ${passed} passed, ${total - run} skipped:`,
        ...reasons,
        `reference evaluator disagrees with the compiled one on ${referenceDisagrees.length}:`,
        ...referenceDisagrees.map((d) => `  ${d}`),
      ].join('\n'),
    );
    expect(failures).toEqual([]);
    expect(run).toBeGreaterThan(500);
  });
});
