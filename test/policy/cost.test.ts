// Expression cost: nesting measured through loop bodies only, the step budget per expression and
// per resource, and a budget overrun that is an error whatever the expression's result.
import { describe, expect, it } from 'vitest';
import { compileExpression, EvaluationError, type ExpressionError } from '../../src/policy/cel.js';
import { EVALUATION_STEPS_PER_EXPRESSION, EVALUATION_STEPS_PER_RESOURCE, resourceBudget } from '../../src/policy/cost.js';

const at = { file: 'p.yaml', line: 3, column: 13 };
const compile = (source: string) => compileExpression(source, at, { variables: ['resource', 'params', 'now'] });
const xs = (n: number) => ({ params: { xs: Array.from({ length: n }, (_, i) => i) } });

function problems(source: string): string[] {
  try {
    compile(source);
    return [];
  } catch (e) {
    return (e as ExpressionError).problems.map((p) => `${p.column}: ${p.message}`);
  }
}

describe('nesting bound at load', () => {
  it('a fourth comprehension inside three loop bodies is refused at its position', () => {
    const four = 'params.xs.all(a, params.xs.all(b, params.xs.all(c, params.xs.all(d, a+b+c+d > 0))))';
    expect(problems(four)).toEqual([
      `${13 + four.lastIndexOf('.all(')}: comprehensions nested 4 deep (at most 3): the cost is the product of the list sizes; split the check`,
    ]);
  });

  it('comprehensions in a range or side by side add, not multiply: accepted', () => {
    const chained = 'params.xs.map(a, a).filter(b, b > 0).map(c, c).filter(d, d > 1).all(e, e > 0)';
    expect(problems(chained)).toEqual([]);
    expect(problems('params.xs.all(a, params.xs.map(b, b).filter(c, c > a).exists(d, params.xs.exists(e, d == e)))')).toEqual([]);
  });
});

describe('step budget at run time', () => {
  it('an expression over budget throws EvaluationError, even when its value would be true', () => {
    const expr = compile('params.xs.exists(a, params.xs.exists(b, params.xs.exists(c, a + b + c < 0))) || true');
    expect(() => expr.evaluate(xs(100))).toThrow(EvaluationError);
    expect(() => expr.evaluate(xs(100))).toThrow(
      `evaluation budget exceeded: more than ${EVALUATION_STEPS_PER_EXPRESSION} loop iterations in one expression`,
    );
    // 46^3 = 97,336 iterations (+ the outer loops) fit; the same expression then evaluates.
    expect(compile('params.xs.all(a, params.xs.all(b, params.xs.all(c, a + b + c >= 0)))').evaluate(xs(46))).toBe(true);
  });

  it('nested map() stops at the budget instead of building 10^6 elements', () => {
    const before = process.memoryUsage().heapUsed;
    const expr = compile('params.xs.map(a, params.xs.map(b, params.xs.map(c, [a, b, c]))).size()');
    expect(() => expr.evaluate(xs(100))).toThrow(/evaluation budget exceeded/);
    const grewMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
    console.log(`hostile: nested map() over 100 items stopped at the step budget; heap +${grewMb.toFixed(1)} MB`);
    expect(grewMb).toBeLessThan(200);
  });

  it('a resource budget is shared by evaluations on one resource', () => {
    const expr = compile('params.xs.all(a, params.xs.all(b, a + b >= 0))');
    const budget = resourceBudget();
    const each = 300 + 300 * 300; // outer + inner iterations of one evaluation
    const fits = Math.floor(EVALUATION_STEPS_PER_RESOURCE / each);
    for (let i = 0; i < fits; i++) expect(expr.evaluate(xs(300), budget)).toBe(true);
    expect(() => expr.evaluate(xs(300), budget)).toThrow(
      `evaluation budget exceeded: more than ${EVALUATION_STEPS_PER_RESOURCE} loop iterations on one resource`,
    );
    // A fresh budget (another resource) starts again.
    expect(expr.evaluate(xs(300), resourceBudget())).toBe(true);
  });
});
