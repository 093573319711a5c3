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
  const values = new Map<string, { value: unknown }>();
  const sharedErrors = new WeakSet<object>();
  const once = (<T>(key: string, fn: () => Promise<T>): Promise<T> => {
    let p = cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = fn().then(
        (value) => {
          values.set(key, { value });
          return value;
        },
        (err: unknown) => {
          if (typeof err === 'object' && err !== null) sharedErrors.add(err);
          throw err;
        },
      );
      cache.set(key, p);
    }
    return p;
  }) as RunMemo;
  once.settled = <T>(key: string) => values.get(key) as { value: T } | undefined;
  return { once, isShared: (err) => typeof err === 'object' && err !== null && sharedErrors.has(err) };
}

/**
 * The engine's own per-resource part memo (not shared-error tagged: a part is one resource's).
 * Keyed by the resource itself, so a part's promise lives as long as its resource does.
 */
export function createPartMemo(): <T>(resource: object, part: string, fn: () => Promise<T>) => Promise<T> {
  const cache = new WeakMap<object, Map<string, Promise<unknown>>>();
  return <T>(resource: object, part: string, fn: () => Promise<T>): Promise<T> => {
    let parts = cache.get(resource);
    if (!parts) {
      parts = new Map();
      cache.set(resource, parts);
    }
    let p = parts.get(part) as Promise<T> | undefined;
    if (!p) {
      p = fn();
      p.catch(() => {}); // observed by every awaiting caller; no unhandled rejection here
      parts.set(part, p);
    }
    return p;
  };
}
