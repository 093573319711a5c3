// Which resources a kind checks: the ids named in its scope list, plus, with `all`, every id its
// listing gives, minus the `exclude` ids or globs. The listing is read whole or fails (the
// client ends an incomplete one with an error): a discovered scope is never silently smaller.
import { globMatches } from '../core/glob.js';
import type { InstanceApi } from '../api/types.js';
import type { CollectedResource, Discovery, ResourceDocument, Scope, ScopeInput } from './types.js';

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

/** How a kind read from one whole listing builds its resources (listedResources). */
export interface ListedKind<T> {
  /** The kind's name (`role`). */
  kind: string;
  /** The scope key (`users`, `roles`, …). */
  key: string;
  /** How the listing is named in the error of an id it does not hold (`the role list`). */
  listing: string;
  idOf(item: T): string;
  nameOf(item: T): string | null | undefined;
  /** The document of a listed item. */
  docOf(item: T): ResourceDocument;
  /** Why a listed item cannot be judged (API drift in it): the resource then carries that error. */
  driftOf?(item: T): Error | undefined;
  /** The document of a named id the listing lacks (the resource then carries the error). */
  missingDoc(id: string): ResourceDocument;
  /** Ids already yielded (declared in manifests): not yielded again. */
  skip?: ReadonlySet<string>;
}

/**
 * The resources of a kind whose listing is read whole (it holds what the documents need): the
 * ids its scope names, or with `all` every listed one minus the excluded; a named id the listing
 * lacks is a resource with its own error. Nothing named and nothing discovered: no read at all.
 */
export async function* listedResources<T>(scope: Scope, read: () => Promise<T[]> | AsyncIterable<T[]>, kind: ListedKind<T>): AsyncGenerator<CollectedResource> {
  const named = scope.ids[kind.key] ?? [];
  const discovery = scope.discover[kind.key];
  if (named.length === 0 && !discovery) return;
  const listed = new Map<string, T>();
  const answer = read();
  const pages: AsyncIterable<T[]> = Symbol.asyncIterator in answer ? answer : (async function* () { yield await answer; })();
  for await (const page of pages) for (const item of page) listed.set(kind.idOf(item), item);
  const { ids } = await selectIds(named, discovery, async () => [...listed.values()], kind.idOf);
  for (const id of ids) {
    if (kind.skip?.has(id)) continue;
    const item = listed.get(id);
    if (item === undefined) {
      yield { kind: kind.kind, id, name: null, doc: kind.missingDoc(id), source: null, loadError: new Error(`${kind.kind} ${id} is not in ${kind.listing}`) };
    } else {
      const loadError = kind.driftOf?.(item);
      yield { kind: kind.kind, id, name: kind.nameOf(item) ?? null, doc: kind.docOf(item), source: null, ...(loadError ? { loadError } : {}) };
    }
  }
}

/** A scope entry's `exists` for a kind read from one listing (`steward doctor`): the id must be in it. */
export function inListing<T>(noun: string, listing: string, read: (api: InstanceApi) => Promise<T[]>, idOf: (item: T) => string): ScopeInput['exists'] {
  return async (api, id) => {
    if (!(await read(api)).some((item) => idOf(item) === id)) throw new Error(`${noun} ${id} is not in ${listing}`);
  };
}
