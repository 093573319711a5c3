// Message templates: literal text with `{{ expr }}` segments, each a CEL expression compiled
// once and rendered as text.
import {
  type Bindings,
  type CompileOptions,
  type CompiledExpression,
  compileExpression,
  type ExpressionOrigin,
  ExpressionError,
} from './cel.js';
import { addProblems, type InputProblem } from '../core/problem.js';
import type { StepBudget } from './cost.js';

export interface CompiledTemplate {
  readonly source: string;
  /** The `{{ }}` expressions, in order (the reads analysis walks them). */
  readonly expressions: readonly CompiledExpression[];
  /** Throws EvaluationError when a segment fails. */
  render(bindings: Bindings, budget?: StepBudget): string;
}

const SEGMENT = /\{\{(.*?)\}\}/gs;

export function compileTemplate(source: string, origin: ExpressionOrigin, options: CompileOptions): CompiledTemplate {
  const parts: (string | CompiledExpression)[] = [];
  const problems: InputProblem[] = [];
  let last = 0;
  for (const m of source.matchAll(SEGMENT)) {
    parts.push(source.slice(last, m.index));
    // Trimmed, so `{{ x }}` and an expression `x` elsewhere share one compilation.
    const inner = m[1].trim();
    const start = m.index + 2 + (m[1].length - m[1].trimStart().length);
    // Positions inside the segment are offsets of the whole template.
    const at = (offset: number) => position(origin, start + offset);
    try {
      parts.push(compileExpression(inner, { ...origin, ...at(0), at }, { ...options, expect: 'text' }));
    } catch (e) {
      if (!(e instanceof ExpressionError)) throw e;
      addProblems(problems, e.problems);
    }
    last = m.index + m[0].length;
  }
  parts.push(source.slice(last));
  const open = source.slice(last).indexOf('{{');
  if (open >= 0) {
    problems.push({ file: origin.file, ...position(origin, last + open), message: "unclosed '{{' in message" });
  }
  if (problems.length > 0) throw new ExpressionError(problems);
  const expressions = parts.filter((p): p is CompiledExpression => typeof p !== 'string');
  return {
    source,
    expressions,
    render: (bindings, budget) => parts.map((p) => (typeof p === 'string' ? p : asText(p.evaluate(bindings, budget)))).join(''),
  };
}

function position(origin: ExpressionOrigin, offset: number): { line: number; column: number } {
  return origin.at ? origin.at(offset) : { line: origin.line, column: origin.column + offset };
}

/** Strings as they are; everything else as compact JSON (`null`, `3`, `["READ"]`). */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
