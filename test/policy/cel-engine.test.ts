// The CEL engine is loaded on need (policy/cel.ts): a start that compiles only the built-in
// pack's expressions (their ASTs kept by the build) never loads it; one that needs it (an
// expression of one's own, the reference evaluator) is told so and compiled again once loaded.
// Fresh modules: the suite's own are loaded with the engine (test/setup-cel-engine.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BUILTIN_PACK_FILE } from '../../src/policy/builtin-pack.js';
import { compileExpression, knownAstsOf } from '../../src/policy/cel.js';

/** The built-in pack's `schedule-timezone-valid` assert, whose AST the pack keeps. */
const TIME_ZONE_ASSERT = 'resource.schedule.timezone != null && isTimeZone(resource.schedule.timezone)';

const ROOT = path.resolve(import.meta.dirname, '../..');
const at = { file: 'p.yaml', line: 3, column: 13 };
const VARS = { variables: ['resource', 'item', 'params', 'now'] };

afterAll(() => {
  vi.resetModules();
});

describe('the CEL engine, loaded on need', () => {
  it("compiles and runs the pack's ASTs without it; an expression of one's own needs it, and withCelEngine loads it and compiles again", async () => {
    vi.resetModules();
    const cel = await import('../../src/policy/cel.js');
    expect(cel.celEngineLoaded()).toBe(false);
    cel.addKnownAsts(JSON.parse(readFileSync(path.join(ROOT, BUILTIN_PACK_FILE), 'utf8')).known);
    const known = cel.compileExpression(TIME_ZONE_ASSERT, at, VARS);
    expect([known.engine, known.evaluate({ resource: { schedule: { timezone: 'Mars/Olympus' } } })]).toEqual(['closures', false]);
    // Its static checks need no engine either: an unknown function is found by the pack's list
    // of the engine's names (a known AST made to call one here), an undeclared variable as ever.
    const pack = JSON.parse(readFileSync(path.join(ROOT, BUILTIN_PACK_FILE), 'utf8')).known;
    const misspelt = TIME_ZONE_ASSERT.replace('isTimeZone', 'isTimezone');
    cel.addKnownAsts({ asts: { [misspelt]: pack.asts[TIME_ZONE_ASSERT].replace('"isTimeZone"', '"isTimezone"') }, functions: pack.functions });
    expect(() => cel.compileExpression(misspelt, at, VARS)).toThrow("unknown function 'isTimezone' (did you mean 'isTimeZone'?)");
    expect(() => cel.compileExpression(TIME_ZONE_ASSERT, at, { variables: ['params'] })).toThrow(/undeclared variable 'resource'/);
    expect(cel.celEngineLoaded()).toBe(false);

    const own = 'resource.count > 1';
    const needed = (() => {
      try {
        cel.compileExpression(own, at, VARS);
      } catch (e) {
        return e;
      }
    })();
    expect(needed).toBeInstanceOf(cel.CelEngineNeeded);
    expect([(needed as Error).name, (needed as Error).message]).toEqual([
      'CelEngineNeeded',
      'the CEL engine is not loaded (needed to parse an expression the built-in pack does not have): compile through withCelEngine',
    ]);
    expect(cel.celEngineLoaded()).toBe(false);
    let attempts = 0;
    const compiled = await cel.withCelEngine(() => {
      attempts++;
      return cel.compileExpression(own, at, VARS);
    });
    expect([attempts, cel.celEngineLoaded(), compiled.evaluate({ resource: { count: 2 } })]).toEqual([2, true, true]);
    // Loaded once: the next compile that would need it runs once.
    attempts = 0;
    await cel.withCelEngine(() => {
      attempts++;
      return cel.compileExpression('resource.count < 1', at, VARS);
    });
    expect(attempts).toBe(1);
  });

  it('another error of a compile is thrown as it is, the compile run once and the engine not loaded for it', async () => {
    vi.resetModules();
    const cel = await import('../../src/policy/cel.js');
    let attempts = 0;
    const bad = new TypeError('not the engine');
    await expect(
      cel.withCelEngine(() => {
        attempts++;
        throw bad;
      }),
    ).rejects.toBe(bad);
    expect([attempts, cel.celEngineLoaded()]).toEqual([1, false]);
  });

  it("a known AST checked for a constant argument, or explained, needs the engine too, and says so", async () => {
    const constant = "now > timestamp('2025-01-01T00:00:00Z')";
    compileExpression(constant, at, VARS);
    const kept = await knownAstsOf([constant]);
    vi.resetModules();
    const cel = await import('../../src/policy/cel.js');
    cel.addKnownAsts(kept);
    expect(() => cel.compileExpression(constant, at, VARS)).toThrow('the CEL engine is not loaded (needed to check a constant timestamp()): compile through withCelEngine');
    cel.addKnownAsts(JSON.parse(readFileSync(path.join(ROOT, BUILTIN_PACK_FILE), 'utf8')).known);
    const known = cel.compileExpression(TIME_ZONE_ASSERT, at, VARS);
    expect(() => cel.explainNode(known.source, known.ast, { resource: {} })).toThrow('the CEL engine is not loaded (needed to explain): compile through withCelEngine');
    await cel.loadCelEngine();
    expect(cel.explainNode(known.source, known.ast, { resource: { schedule: { timezone: 'UTC' } } })).toEqual({ text: TIME_ZONE_ASSERT, value: true });
  });

  it("did-you-mean offers functions by name, never an operator's internal name", () => {
    expect(() => compileExpression('resource.name.sise() > 0', at, VARS)).toThrow("unknown function 'sise' (did you mean 'size'?)");
    // `@steward_step` is one edit from `steward_step`, but no policy can call it: never offered.
    expect(() => compileExpression('steward_step(true)', at, VARS)).toThrow(/^unknown function 'steward_step'$/);
  });

  it('a syntax error of one\'s own is an ExpressionError at its position once the engine is loaded', async () => {
    vi.resetModules();
    const cel = await import('../../src/policy/cel.js');
    const problem = await cel.withCelEngine(() => cel.compileExpression('resource.a &&', at, VARS)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(problem).toBeInstanceOf(cel.ExpressionError);
    expect((problem as InstanceType<typeof cel.ExpressionError>).problems).toEqual([
      { file: 'p.yaml', line: 3, column: 24, message: expect.stringMatching(/^CEL syntax error/) },
    ]);
  });

  it('the reference evaluator and a constant argument need the engine too', async () => {
    vi.resetModules();
    const cel = await import('../../src/policy/cel.js');
    cel.addKnownAsts(JSON.parse(readFileSync(path.join(ROOT, BUILTIN_PACK_FILE), 'utf8')).known);
    expect(() => cel.compileExpression(TIME_ZONE_ASSERT, at, { ...VARS, engine: 'reference' })).toThrow(/needed for the reference evaluator/);
    vi.resetModules();
    const fresh = await import('../../src/policy/cel.js');
    await fresh.loadCelEngine();
    expect(() => fresh.compileExpression("now > timestamp('2025-13-01T00:00:00Z')", at, VARS)).toThrow(/invalid timestamp/);
    const reference = fresh.compileExpression('resource.n + 1', at, { ...VARS, engine: 'reference' });
    expect([reference.engine, reference.evaluate({ resource: { n: 1 } })]).toEqual(['reference', 2]);
  });
});
