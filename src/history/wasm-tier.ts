// Which of V8's compilers gets sql.js's WebAssembly (sqlite-drivers.ts), on the Nodes that open
// histories with it. By default V8 compiles every function with its baseline compiler (Liftoff),
// then recompiles the hot ones with its optimising compiler on background threads. For SQLite's
// interpreter loop that costs more than it ever saves a run: on Node 20, recording a run of 10,000
// findings spent 300–450 ms of CPU recompiling, against ~150 ms of queries in the baseline
// code (BENCHMARKS.md, the history row). A V8 flag holds for the whole process, so only a process
// steward owns sets it (the CLI, cli/main.ts); a program that calls the library keeps its own.
// Nothing here loads a module until sql.js is about to compile: the CLI sets this at every start.

let baselineOnly = false;

/** Called by a process of steward's own: sql.js's WebAssembly, when it compiles, gets V8's baseline compiler only. */
export function compileWasmBaselineOnly(): void {
  baselineOnly = true;
}

/**
 * Applies the choice: called once, just before sql.js compiles its WebAssembly (no module is
 * compiled before it in steward's process, so none is compiled under another setting).
 * `setFlags` is V8's (`node:v8`); tests pass their own.
 */
export async function beforeWasmCompiles(setFlags?: (flags: string) => void): Promise<void> {
  if (!baselineOnly) return;
  // Stryker disable next-line StringLiteral: esbuild resolves every import literal (the tests' recorder bundles this file), an emptied one too
  const set = setFlags ?? (await import('node:v8')).setFlagsFromString;
  set('--liftoff-only');
}
