// A policy set as every caller needs it: the files read and validated (loader.ts), then each
// definition compiled and type-checked once (compile.ts), with the problems of both together,
// sorted by position, in one InputError. The CEL engine is loaded when a compile needs it.
import { InputError } from '../core/problem.js';
import type { InputProblem } from '../core/problem.js';
import { withCelEngine } from './cel.js';
import { type CompiledPolicy, compileAll } from './compile.js';
import { type LoadOptions, parsePolicyText, readPolicies } from './loader.js';
import type { KindRegistry } from './schema.js';

/** The policies `paths` name, compiled (InputError with every problem of files and expressions). */
export async function loadCompiledPolicies(paths: readonly string[], options: LoadOptions): Promise<CompiledPolicy[]> {
  const read = await readPolicies(paths, options);
  return withCelEngine(() => compileAll(read.policies, options.kinds, read.problems));
}

/**
 * Every problem of one policy file's text, its expressions' included (an editor's check). It
 * compiles synchronously: an expression the built-in pack does not have needs the CEL engine
 * loaded first (`loadCelEngine`), or this throws CelEngineNeeded.
 */
export function checkPolicyText(text: string, file: string, options: { kinds: KindRegistry }): InputProblem[] {
  const { policies, problems } = parsePolicyText(text, file, options);
  try {
    compileAll(policies, options.kinds, problems);
    return [];
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return e.problems;
  }
}
