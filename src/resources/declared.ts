// Kinds declared in manifests (queues, data files, page and card sharing): each manifest is one
// resource, read before any request; the ids the scope names or discovers that no manifest
// declares follow, judged on their live state.
import { selectIds } from './discovery.js';
import { loadManifests, type Manifest, type ManifestKind } from './manifests.js';
import type { CollectContext, CollectedResource } from './types.js';

/** The resources the manifests of `kind` (`manifests.<key>`) declare: the manifest's id, then `docOf`'s fields. */
export async function declaredResources(
  kind: ManifestKind,
  key: string,
  ctx: Pick<CollectContext, 'manifestFiles' | 'displayRoot'>,
  docOf: (m: Manifest) => Record<string, unknown>,
): Promise<CollectedResource[]> {
  return (await loadManifests(kind, ctx.manifestFiles[key] ?? [], ctx.displayRoot)).map((m) => ({ kind, id: String(m.id), name: null, doc: { id: m.id, ...docOf(m) }, source: m.source }));
}

/** How the undeclared resources of a declared kind are found: its scope key and listing. */
export interface ScopedUndeclared<T> {
  kind: string;
  key: string;
  listing(): AsyncIterable<T[]> | Promise<T[]>;
  idOf(item: T): string;
  nameOf(item: T): string | null | undefined;
  /** The document's `id` for a scope id (a number where the platform's ids are). */
  docId(id: string): string | number;
}

/** The declared resources, then each id the scope names or discovers that none of them is (`declared: false`). */
export async function* declaredThenScoped<T>(ctx: CollectContext, declared: CollectedResource[], scoped: ScopedUndeclared<T>): AsyncGenerator<CollectedResource> {
  yield* declared;
  const known = new Set(declared.map((r) => r.id));
  const { ids, names } = await selectIds(ctx.scope.ids[scoped.key] ?? [], ctx.scope.discover[scoped.key], scoped.listing, scoped.idOf, scoped.nameOf);
  for (const id of ids) {
    if (!known.has(id)) yield { kind: scoped.kind, id, name: names.get(id) ?? null, doc: { id: scoped.docId(id), declared: false }, source: null };
  }
}
