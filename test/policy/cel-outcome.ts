// What an expression gives on the compiled (default) or the reference evaluator: its value, or
// the evaluation error's message. Shared by the compiled evaluator's tests.
import { type Bindings, compileExpression, EvaluationError } from '../../src/policy/cel.js';

const VARIABLES = ['resource', 'item', 'params', 'now'];
const at = { file: 'test.yaml', line: 1, column: 1 };

export const compile = (source: string, engine?: 'reference') => compileExpression(source, at, { variables: VARIABLES, ...(engine ? { engine } : {}) });

export type Outcome = { value: unknown } | { error: string };

export function outcome(source: string, bindings: Bindings, engine?: 'reference'): Outcome {
  try {
    return { value: compile(source, engine).evaluate(bindings) };
  } catch (e) {
    if (!(e instanceof EvaluationError)) throw e;
    return { error: e.message };
  }
}
