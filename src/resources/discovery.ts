// Which resources a kind checks: the ids named in its scope list, plus, with `all`, every id its
// listing gives, minus the `exclude` ids or globs. The listing is read whole or fails (the
// client ends an incomplete one with an error): a discovered scope is never silently smaller.
import { globMatches } from '../core/glob.js';
import type { Discovery, Scope, ScopeInput } from './types.js';

/** Whether `id` (or, for a file, its set id) is left out by an `exclude` entry. */
export function excluded(discovery: Discovery | undefined, ...ids: string[]): boolean {
  return (discovery?.exclude ?? []).some((glob) => ids.some((id) => globMatches(glob, id)));
}

/**
 * The ids to check, in order: explicit ones first, then the listing's (when discovering), each
 * once, none excluded; `names` gets the listing's names.
 */
export async function selectIds<T>(
  explicit: readonly string[],
  discovery: Discovery | undefined,
  listing: () => AsyncIterable<T[]> | Promise<T[]>,
  idOf: (item: T) => string,
  nameOf: (item: T) => string | null | undefined = () => null,
): Promise<{ ids: string[]; names: Map<string, string | null>; items: Map<string, T> }> {
  const names = new Map<string, string | null>();
  const items = new Map<string, T>();
  const ids = [...explicit];
  if (discovery) {
    const answer = listing();
    const pages: AsyncIterable<T[]> = Symbol.asyncIterator in answer ? (answer as AsyncIterable<T[]>) : (async function* () { yield await (answer as Promise<T[]>); })();
    for await (const page of pages) {
      for (const item of page) {
        const id = idOf(item);
        ids.push(id);
        names.set(id, nameOf(item) ?? null);
        items.set(id, item);
      }
    }
  }
  return { ids: [...new Set(ids)].filter((id) => !excluded(discovery, id)), names, items };
}

/** What a kind's `scope.<key>` names: ids, or [set id, path] pairs (empty when the key is absent). */
export function scopeEntries(scope: Scope, input: Pick<ScopeInput, 'key' | 'shape'>): [string, string?][] {
  if (input.shape === 'ids') return (scope.ids[input.key] ?? []).map((id) => [id]);
  return Object.entries(scope.paths[input.key] ?? {}).flatMap(([set, paths]) => paths.map((p): [string, string] => [set, p]));
}
