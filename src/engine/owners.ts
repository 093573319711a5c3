// Who owns the resource of each finding (issue "from findings to the people who fix them"): the
// kind's own `owner` part (the platform's owner field resolved against the user directory),
// loaded after judgement and only for resources with a finding, so a passing resource costs no
// read. An owner that cannot be read is `ownerUnknown` with why: routing metadata, never a
// verdict, so it fails no policy.
import type { Finding, FindingOwner } from '../core/model.js';
import type { CollectedResource, ResourceKind, RunMemo } from '../resources/types.js';
import type { InstanceApi } from '../api/types.js';
import { ALL_RESOURCES_ID, errorText } from './findings.js';
import { mapPool } from './pool.js';

type OwnerAnswer = { owner: FindingOwner } | { owner: null; ownerUnknown: string };

export interface OwnerContext {
  api: InstanceApi;
  once: RunMemo;
  partMemo: <T>(resource: object, part: string, fn: () => Promise<T>) => Promise<T>;
}

/** The resolved owner part as a finding carries it; null when the document's value is none. */
function findingOwner(value: unknown): FindingOwner | null {
  // Stryker disable next-line ConditionalExpression: a string, number or boolean has no `type` of USER or GROUP either
  if (!value || typeof value !== 'object') return null;
  const o = value as Partial<FindingOwner>;
  if ((o.type !== 'USER' && o.type !== 'GROUP') || typeof o.id !== 'string') return null;
  return { type: o.type, id: o.id, name: o.name ?? null, email: o.email ?? null, state: o.state ?? null };
}

/**
 * Of a resource with several owners (`resolvedOwners`: groups, pages), the one a finding goes to:
 * the first who is active, user or group, in the listing's order, so a finding about a departed
 * first owner reaches a co-owner who can act on it; else the first (whose state says why nobody
 * can). A kind's one owner (not a list) is that owner.
 */
function routedOwner(owners: unknown): unknown {
  if (!Array.isArray(owners)) return owners;
  return owners.find((o) => (o as { state?: unknown } | null)?.state === 'active') ?? owners[0] ?? null;
}

async function ownerOfResource(ctx: OwnerContext, kind: ResourceKind, r: CollectedResource): Promise<OwnerAnswer> {
  // Every owner where the kind resolves them all, else its one owner.
  const name = kind.parts.resolvedOwners ? 'resolvedOwners' : 'owner';
  const part = kind.parts[name];
  if (!part) return { owner: null, ownerUnknown: kind.ownerless ?? `a ${kind.name} names no owner` };
  // A policy that read the part left it in the document; the pre-release gate reads nothing from
  // the instance for what a manifest declares; otherwise it is read now (once per resource).
  const read = Object.hasOwn(r.doc, name);
  if (!read && r.source) return { owner: null, ownerUnknown: `declared in ${r.source.location.file}: the instance is not read for a declared resource's owner; route it with the config's owners: map` };
  try {
    const value = read ? r.doc[name] : await ctx.partMemo(r, name, () => part.load(ctx.api, r, ctx.once));
    const owner = findingOwner(routedOwner(value));
    return owner ? { owner } : { owner: null, ownerUnknown: `the platform names no owner for ${kind.name} ${r.id}` };
  } catch (err) {
    return { owner: null, ownerUnknown: errorText(err) };
  }
}

/**
 * Sets `owner` (or `owner: null` with `ownerUnknown`) on each finding of one kind. `resources`
 * holds the kind's resources that have a finding; an error of the whole kind names no resource.
 */
export async function attachOwners(ctx: OwnerContext, kind: ResourceKind, findings: Finding[], resources: Map<string, CollectedResource>, concurrency: number): Promise<void> {
  const answers = new Map<string, OwnerAnswer>();
  await mapPool([...resources.values()], concurrency, async (r) => {
    answers.set(r.id, await ownerOfResource(ctx, kind, r));
  });
  for (const f of findings) {
    const answer: OwnerAnswer =
      answers.get(f.resource.id) ??
      (f.resource.id === ALL_RESOURCES_ID
        ? { owner: null, ownerUnknown: `the error concerns every ${kind.name} resource, not one` }
        : { owner: null, ownerUnknown: `${kind.name} ${f.resource.id} was not collected` });
    f.owner = answer.owner;
    if (answer.owner === null) f.ownerUnknown = answer.ownerUnknown;
  }
}
