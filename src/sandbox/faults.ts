// Fault injection: a deterministic per-operation script (tests) takes priority over the random
// knobs (benchmarks, chaos runs), which draw from their own seeded stream.
import type { OperationId } from '../api/types.js';
import { createRandom, type Random } from './random.js';
import type { FaultOptions, ScriptedFault } from './types.js';

export const NO_FAULTS: Readonly<FaultOptions> = Object.freeze({
  latencyMs: 0,
  jitterMs: 0,
  errorRates: {},
  rateLimitRate: 0,
  retryAfterSeconds: 1,
  dropRate: 0,
  malformedJsonRate: 0,
  slowBodyMs: 0,
});

/** What to do with one request before (or instead of) answering it normally. */
export interface FaultDecision {
  /** Wait this long before anything else. */
  delayMs: number;
  /** Write the body in two halves this far apart. */
  slowBodyMs: number;
  drop?: boolean;
  malformedJson?: boolean;
  status?: number;
  retryAfter?: number;
  body?: string;
}

export class FaultInjector {
  private options: FaultOptions;
  private readonly random: Random;
  private readonly scripts = new Map<OperationId, ScriptedFault[]>();

  constructor(seed: number, options: Partial<FaultOptions> = {}) {
    this.options = { ...NO_FAULTS, ...options };
    // A stream separate from the generator's: faults never change the instance's data.
    this.random = createRandom((seed ^ 0x5bd1e995) >>> 0);
  }

  set(options: Partial<FaultOptions>): void {
    this.options = { ...this.options, ...options };
  }

  script(operation: OperationId, fault: ScriptedFault, times = 1): void {
    const queue = this.scripts.get(operation) ?? [];
    for (let i = 0; i < times; i++) queue.push({ ...fault });
    this.scripts.set(operation, queue);
  }

  decide(operation: OperationId, path: string): FaultDecision {
    const o = this.options;
    const base: FaultDecision = {
      delayMs: o.latencyMs + (o.jitterMs > 0 ? this.random.next() * o.jitterMs : 0),
      slowBodyMs: o.slowBodyMs,
    };
    const queue = this.scripts.get(operation) ?? [];
    const at = queue.findIndex((f) => f.path === undefined || f.path === path);
    const scripted = at === -1 ? undefined : queue.splice(at, 1)[0];
    if (scripted) {
      const { delayMs = 0, path: _path, ...rest } = scripted;
      return { ...base, ...rest, delayMs: base.delayMs + delayMs };
    }
    // One draw per request against the cumulative probabilities keeps the sequence replayable.
    const roll = this.random.next();
    let edge = o.dropRate;
    if (roll < edge) return { ...base, drop: true };
    edge += o.rateLimitRate;
    if (roll < edge) return { ...base, status: 429, retryAfter: o.retryAfterSeconds };
    for (const [status, rate] of Object.entries(o.errorRates)) {
      edge += rate ?? 0;
      if (roll < edge) return { ...base, status: Number(status) };
    }
    edge += o.malformedJsonRate;
    if (roll < edge) return { ...base, malformedJson: true };
    return base;
  }
}
