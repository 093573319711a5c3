// The run's memo: each key's read happens once per run, whoever asks first. Errors of reads
// shared by many resources are remembered so the engine reports them once per policy.
import type { RunMemo } from '../resources/types.js';

export interface RunMemoState {
  once: RunMemo;
  /** true when `err` came from a memoized shared read (e.g. the misconfigured list). */
  isShared(err: unknown): boolean;
}

export function createRunMemo(): RunMemoState {
  const cache = new Map<string, Promise<unknown>>();
  const sharedErrors = new WeakSet<object>();
  const once: RunMemo = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    let p = cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = fn().catch((err: unknown) => {
        if (typeof err === 'object' && err !== null) sharedErrors.add(err);
        throw err;
      });
      cache.set(key, p);
    }
    return p;
  };
  return { once, isShared: (err) => typeof err === 'object' && err !== null && sharedErrors.has(err) };
}

/** The engine's own per-resource part memo (not shared-error tagged: a part is one resource's). */
export function createPartMemo(): <T>(key: string, fn: () => Promise<T>) => Promise<T> {
  const cache = new Map<string, Promise<unknown>>();
  return <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    let p = cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = fn();
      p.catch(() => {}); // observed by every awaiting caller; no unhandled rejection here
      cache.set(key, p);
    }
    return p;
  };
}
