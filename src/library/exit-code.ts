// The exit code of a finished run, apart from the evaluation: the commands that read a written
// report (merge) need no evaluator to give it.
import type { Report } from '../core/model.js';
import { exitCodeForGate } from '../engine/verdict.js';

/** The exit code of DESIGN §9 for a finished run: 0 pass, 1 violations, 3 could not evaluate. */
export function exitCodeFor(report: Report): 0 | 1 | 3 {
  return exitCodeForGate(report.summary.gate);
}
