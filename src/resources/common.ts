// Small helpers shared by the resource kinds.
import type { InstanceApi, OperationId } from '../api/types.js';
import type { CollectContext, CollectedResource, FixKind, KindProbe, ResourceDocument, ResourceKind, RunMemo } from './types.js';

/** Reads every page of a limit/skip iterator into one array. */
export async function readAllPages<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  const all: T[] = [];
  for await (const page of pages) all.push(...page);
  return all;
}

/** Every resource a kind collects, in order (a page `collect` yields at once is taken item by item). */
export async function collectAll(kind: ResourceKind, ctx: CollectContext): Promise<CollectedResource[]> {
  const out: CollectedResource[] = [];
  for await (const got of kind.collect(ctx)) {
    if (!Array.isArray(got)) out.push(got as CollectedResource);
    else for (const r of got as readonly CollectedResource[]) out.push(r);
  }
  return out;
}

/** Reads the first page of a listing only (a probe that the listing can be read at all): its items, none for an empty listing. */
export async function firstPage<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
  for await (const page of pages) return page;
  return [];
}

/** Whether a read's answer is a listing's pages rather than one whole answer. */
export const isPages = (answer: unknown): answer is AsyncIterable<unknown[]> => !!answer && typeof answer === 'object' && Symbol.asyncIterator in answer;

/** Waits for a read as a probe does: a listing's first page only, any other answer whole. */
export async function firstPageOrWhole(answer: unknown): Promise<void> {
  if (isPages(answer)) await firstPage(answer);
  else await answer;
}

/** Without an engine memo every call runs its read (tests of single kinds, fixes). */
export const noMemo: RunMemo = (_key, fn) => fn();

/** `permissions[2]` → 2 for the list named `list`; throws on any other path. */
export function itemIndex(itemPath: string | null, list: string): number {
  const m = itemPath === null ? null : new RegExp(`^${list}\\[(\\d+)\\]$`).exec(itemPath);
  if (!m) throw new Error(`this fix applies to an item of ${list}, not to ${itemPath ?? 'the whole resource'}`);
  return Number(m[1]);
}

/** The item an item path names (`drift[2]` → the third of `doc.drift`), or undefined. */
export function itemAt<T>(doc: ResourceDocument, list: string, itemPath: string | null): T | undefined {
  const m = itemPath === null ? null : new RegExp(`^${list}\\[(\\d+)\\]$`).exec(itemPath);
  return m ? ((doc[list] as T[] | undefined) ?? [])[Number(m[1])] : undefined;
}

/** The `remove` fix of a manifest-declared kind: drops the entry a finding is about from `list`. */
export function removeEntryFix(list: string, description: string): FixKind {
  return {
    name: 'remove',
    schema: { const: true, description },
    perItem: true,
    apply(doc, _value, itemPath) {
      const i = itemIndex(itemPath, list);
      return { ...doc, [list]: ((doc[list] as unknown[] | undefined) ?? []).filter((_, j) => j !== i) };
    },
  };
}

export const stringArraySchema = { type: 'array', items: { type: 'string' } };

/**
 * A probe that one read can be made (a listing's first page, or a whole small answer): what it
 * checks and asks, and what to do when it is refused. Most kinds' grant checks are this.
 */
export function readProbe(id: string, when: OperationId[], check: string, asked: string, run: (api: InstanceApi) => Promise<unknown> | AsyncIterable<unknown[]>, fix: string): KindProbe {
  return {
    id,
    when,
    plan: () => ({
      check,
      asked,
      run: (api) => firstPageOrWhole(run(api)),
      fix: () => fix,
    }),
  };
}
