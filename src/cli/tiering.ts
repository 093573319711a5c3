// When V8 compiles a function with its optimising tiers, in the binary's own process when its
// command evaluates policies (set by the entry before any chunk compiles; the library's callers
// keep V8's defaults). Node 24's V8 starts Maglev on a function after ~400 calls and TurboFan after ~3,000
// (loops: on-stack replacement after ~100 and ~500): in a `check` of a few dozen policies that
// is hundreds of functions compiled on V8's threads for a run over in ~100 ms, each compile
// making and touching memory the run never gets back. Ten times later, a short run compiles
// almost none (`check --from` the demo snapshot, Node 24: ~9 % less CPU, ~700 fewer page
// faults), and a long one still optimises its hot code early in its run (100,000 schedules
// offline: the same CPU; the optimising tiers off altogether made it ~50 % slower). Loading
// node:v8 costs a start ~3 ms, which a command that evaluates no policies does not get back
// (`validate` read +8 %, `--help` +9 %). Paired figures: BENCHMARKS.md. Only Node's built-ins
// here: the entry loads this file.
import type * as V8 from 'node:v8';
import { createRequire } from './builtins.js';

/** V8's tier-up thresholds, ten times Node 24's defaults (`node --v8-options`: 400, 3000, 100, 500, 30). */
export const LATER_TIER_UP: readonly string[] = [
  '--invocation-count-for-maglev=4000',
  '--invocation-count-for-turbofan=30000',
  '--invocation-count-for-maglev-osr=1000',
  '--invocation-count-for-osr=5000',
  '--invocation-count-for-early-optimization=300',
];

/**
 * The V8 versions whose flags these are (Node 24's 13.6). V8 prints "unrecognized flag" on
 * stderr for a flag it does not have, and Node 20's V8 (11.3) has other ones, and no Maglev to
 * hold back: elsewhere the defaults stay.
 */
export const TIERING_FLAGS_V8 = /^13\./;

/** The commands whose run evaluates the policy set over resources (chunk-loader.ts cacheNameOf names them). */
export const EVALUATING_COMMANDS: ReadonlySet<string> = new Set(['check', 'fix', 'evidence']);

/**
 * Sets LATER_TIER_UP for `command` when it evaluates policies, on a V8 that has those flags;
 * whether it did. `setFlags` is node:v8's (loaded only then).
 */
export function tierUpLater(
  command: string,
  v8Version: string = process.versions.v8,
  // Stryker disable next-line ArrowFunction: what node:v8's setter does is V8's tiering, which the bench measures; a test process sees only that it was asked
  setFlags: (flags: string) => void = (flags) => (createRequire(import.meta.url)('node:v8') as typeof V8).setFlagsFromString(flags),
): boolean {
  if (!EVALUATING_COMMANDS.has(command) || !TIERING_FLAGS_V8.test(v8Version)) return false;
  setFlags(LATER_TIER_UP.join(' '));
  return true;
}
