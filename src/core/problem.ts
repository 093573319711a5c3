// Errors that decide an exit code. Each carries a literal `code` (Spectral style) so callers
// switch on it instead of on classes or message text.

/** Bad input (config, policy, manifest, waiver, flag): exit 2, nothing sent to the API. */
export class InputError extends Error {
  readonly code = 'E_INPUT' as const;
  readonly problems: InputProblem[];
  constructor(problems: InputProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'InputError';
    this.problems = problems;
  }
}

/**
 * Appends `more` to `problems` one by one. `problems.push(...more)` passes each problem as an
 * argument, and a list that long overflows the call stack: a waivers file of 150,000 entries
 * missing a field ended on "Maximum call stack size exceeded" (exit 3), not its problems (exit 2).
 */
export function addProblems(problems: InputProblem[], more: readonly InputProblem[]): void {
  for (const p of more) problems.push(p);
}

/** A problem without a file (a flag, an environment variable) uses the flag's name as file. */
export function formatProblem(p: InputProblem): string {
  return p.line > 0 ? `${p.file}:${p.line}:${p.column}: ${p.message}` : `${p.file}: ${p.message}`;
}

/** An error in an input file. `steward` prints `file:line:column: message` and exits 2. */
export interface InputProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}
