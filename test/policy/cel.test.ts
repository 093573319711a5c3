// The CEL interface: JSON numbers as ints or doubles, `in`, macros, isTimeZone, `now`,
// templates, compile-once, and evaluation errors that surface instead of passing.
import { describe, expect, it } from 'vitest';
import type { Expr } from '../../src/policy/ast.js';
import { addKnownAsts, celStats, compileExpression, EvaluationError, ExpressionError, explainNode, knownAstsOf } from '../../src/policy/cel.js';
import { compileTemplate } from '../../src/policy/template.js';

const at = { file: 'p.yaml', line: 3, column: 13 };
const VARS = { variables: ['resource', 'item', 'params', 'now'] };
const run = (source: string, bindings: Record<string, unknown> = {}) => compileExpression(source, at, VARS).evaluate(bindings);

describe('CEL expressions', () => {
  it('whole JSON numbers are ints, others doubles', () => {
    const resource = { recipientCount: 0, cardCount: 2, ratio: 0.5 };
    expect(run('resource.recipientCount == 0', { resource })).toBe(true);
    expect(run('resource.cardCount + 1', { resource })).toBe(3);
    expect(run('type(resource.cardCount) == int', { resource })).toBe(true);
    expect(run('type(resource.ratio) == double', { resource })).toBe(true);
    expect(run('resource.ratio * 2.0', { resource })).toBe(1);
    expect(run('resource.cardCount / 4', { resource })).toBe(0); // int division, as CEL defines
    expect(run('{"n": resource.cardCount, "l": [1, "a", null]}', { resource })).toEqual({ n: 2, l: [1, 'a', null] });
  });

  it('`in`, exists, all, filter over nested maps and lists', () => {
    const item = { id: '7', type: 'USER', permissions: ['READ', 'ADMIN'] };
    expect(run("'ADMIN' in item.permissions", { item })).toBe(true);
    expect(run("!('SHARE' in item.permissions)", { item })).toBe(true);
    const resource = { access: { list: [{ type: 'USER', accessLevel: 'OWNER' }, { type: 'GROUP', accessLevel: 'CAN_VIEW' }] } };
    expect(run("resource.access.list.exists(e, e.type == 'GROUP' && e.accessLevel == 'OWNER')", { resource })).toBe(false);
    expect(run("resource.access.list.all(e, e.accessLevel != '')", { resource })).toBe(true);
    expect(run("resource.access.list.filter(e, e.type == 'USER').size()", { resource })).toBe(1);
    expect(run('has(resource.access) && !has(resource.name)', { resource })).toBe(true);
  });

  it('isTimeZone accepts IANA names only; params and now are bound', () => {
    expect(run("isTimeZone('Europe/Berlin') && isTimeZone('America/New_York')")).toBe(true);
    expect(run("isTimeZone('Mars/Olympus')")).toBe(false);
    expect(run("isTimeZone('')")).toBe(false);
    expect(run('resource.invalid <= params.maxInvalid', { resource: { invalid: 3 }, params: { maxInvalid: 5 } })).toBe(true);
    const now = new Date('2025-06-01T00:00:00Z');
    expect(run("now > timestamp('2025-05-31T23:59:59Z')", { now })).toBe(true);
    expect(run('now', { now })).toBe('2025-06-01T00:00:00.000Z');
  });

  it('each distinct expression is parsed and planned once', () => {
    const source = `resource.count == ${Date.now()}`;
    const before = celStats.compilations;
    for (let i = 0; i < 5; i++) compileExpression(source, at, VARS).evaluate({ resource: { count: i } });
    compileTemplate(`n={{ ${source} }}`, at, VARS);
    expect(celStats.compilations - before).toBe(1);
  });

  it('an AST kept ahead of time is taken for its very text, and round-trips the parser\'s', async () => {
    const stamp = Date.now();
    const source = `resource.count == ${stamp} && item.exists(x, x > 1)`;
    const fresh = compileExpression(source, at, VARS);
    const { asts, functions } = await knownAstsOf([source]);
    expect(functions).toContain('isTimeZone');
    expect(functions).toContain('size');
    // Another text given that AST compiles to it: the parser did not run for it.
    const other = `resource.count == ${stamp} && item.exists(y, y > 2)`;
    addKnownAsts({ asts: { [other]: asts[source] }, functions });
    const known = compileExpression(other, at, VARS);
    expect(known.ast).toEqual(fresh.ast);
    expect(known.evaluate({ resource: { count: stamp }, item: [0, 2] })).toBe(true);
    await expect(knownAstsOf(['never.compiled'])).rejects.toThrow(/was not compiled/);
  });

  it('an evaluation error surfaces; it is never a pass', () => {
    const e = compileExpression('resource.missing == 1', at, VARS);
    expect(() => e.evaluate({ resource: { id: 1 } })).toThrow(new EvaluationError('field not found: missing', 'resource.missing == 1'));
    expect(() => run("resource.n + 'a'", { resource: { n: 1 } })).toThrow(/no matching overload/);
  });

  it('compile problems carry file positions', () => {
    const err = (() => {
      try {
        compileExpression('resource.a &&', at, VARS);
      } catch (e) {
        return e as ExpressionError;
      }
    })();
    expect(err).toBeInstanceOf(ExpressionError);
    expect(err?.problems).toEqual([{ file: 'p.yaml', line: 3, column: 24, message: expect.stringMatching(/^CEL syntax error/) }]);
  });
});

describe('compile problems', () => {
  const problemsOf = (source: string, options = VARS as Parameters<typeof compileExpression>[2]) => {
    try {
      compileExpression(source, at, options);
      return [];
    } catch (e) {
      expect(e).toBeInstanceOf(ExpressionError);
      return (e as ExpressionError).problems.map((p) => p.message);
    }
  };

  it('an ExpressionError says every problem, an EvaluationError its own name', () => {
    const e = new ExpressionError([
      { file: 'p.yaml', line: 1, column: 1, message: 'first' },
      { file: 'p.yaml', line: 2, column: 1, message: 'second' },
    ]);
    expect([e.name, e.message]).toEqual(['ExpressionError', 'first; second']);
    expect(new EvaluationError('no such key', 'a.b').name).toBe('EvaluationError');
  });

  it('a syntax error lists what the parser expected, or only what it found when that list is long', () => {
    expect(problemsOf('(1 + ')).toEqual(["CEL syntax error: found + but expecting ')'"]);
    expect(problemsOf('[1, 2')).toEqual(['CEL syntax error: unexpected end of input']);
  });

  it('a parameter the policy does not declare is named, with those it does; a loop variable called params is not one', () => {
    expect(problemsOf('params.limit > 1', { variables: ['params'], params: [] })).toEqual(["undeclared parameter 'limit' (declared: none)"]);
    expect(problemsOf('params.limit > 1', { variables: ['params'], params: ['max', 'min'] })).toEqual(["undeclared parameter 'limit' (declared: max, min)"]);
    expect(problemsOf('[{"limit": 1}].all(params, params.limit > 0)', { variables: ['params'], params: [] })).toEqual([]);
  });

  it('without declared parameters (no `params` option) any `params.x` compiles', () => {
    expect(problemsOf('params.limit > 1', { variables: ['params'] })).toEqual([]);
  });

  it("every problem of a compile is said in the text's order, whichever check found it", () => {
    // The type check finds `1 + 'a'` (column 1), the static check the unknown function after it.
    expect(problemsOf("1 + 'a' == 2 && nope(1)")).toEqual(["type error: no '+' for int and string", "unknown function 'nope'"]);
  });

  it('explaining an expression never compiled is an internal error that names it', () => {
    expect(() => explainNode('never.compiled', {} as Expr, {})).toThrow('explainNode: never.compiled was not compiled');
  });
});

describe('message templates', () => {
  it('renders strings raw, numbers and lists as JSON, text around kept', () => {
    const t = compileTemplate('User {{ item.name }} ({{ item.id }}) has {{ item.permissions }} x{{ item.n }}{{ item.none }}', at, VARS);
    expect(t.render({ item: { name: 'Ana', id: '7', permissions: ['READ'], n: 2, none: null } })).toBe(
      'User Ana (7) has ["READ"] x2null',
    );
    expect(compileTemplate('no segments', at, VARS).render({})).toBe('no segments');
  });

  it('an unclosed segment is a problem at its position', () => {
    expect(() => compileTemplate('a {{ item.name', at, VARS)).toThrow(ExpressionError);
    try {
      compileTemplate('a {{ item.name', at, VARS);
    } catch (e) {
      expect((e as ExpressionError).problems).toEqual([{ file: 'p.yaml', line: 3, column: 15, message: "unclosed '{{' in message" }]);
    }
  });
});
