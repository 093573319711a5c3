// Input problems are reported in reading order, whatever order the checks found them in.
import type { InputProblem } from '../core/problem.js';

/** By file, then line, then column (stable otherwise). */
export function sortProblems(problems: readonly InputProblem[]): InputProblem[] {
  return [...problems].sort(
    (a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column,
  );
}
