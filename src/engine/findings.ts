// Turning evaluation outcomes into report findings (DESIGN §8): location, fingerprint, item.
import { isRunWide } from '../api/run-wide.js';
import type { PolicyDefinition } from '../policy/types.js';
import type { Finding, SourceLocation } from '../core/model.js';
import type { CollectedResource } from '../resources/types.js';
import { fingerprint } from './fingerprint.js';

/** Resource id of an error that concerns every resource of a kind (its listing failed). */
export const ALL_RESOURCES_ID = '*';

/**
 * Declared kinds point at the manifest entry (the longest known prefix of `path`, else the
 * resource's id key); live kinds at the policy's definition.
 */
export function findingLocation(
  policy: PolicyDefinition,
  resource: CollectedResource | null,
  path: string | null,
): SourceLocation | null {
  const source = resource?.source;
  if (!source) return policy.location ?? null;
  let p = path;
  while (p) {
    const hit = source.paths[p];
    if (hit) return hit;
    const cut = Math.max(p.lastIndexOf('.'), p.lastIndexOf('['));
    // Stryker disable next-line EqualityOperator: a cut at 0 leaves an empty path, which ends the walk as null does
    p = cut > 0 ? p.slice(0, cut) : null;
  }
  return source.location;
}

export function violationFinding(
  policy: PolicyDefinition,
  resource: CollectedResource,
  o: { path: string | null; itemKey: string | null; message?: string; offendingValue: unknown },
): Finding {
  return {
    policy: policy.id,
    severity: policy.severity,
    status: 'violation',
    resource: { kind: resource.kind, id: resource.id, name: resource.name },
    path: o.path,
    item: o.itemKey,
    message: o.message ?? policy.title,
    location: findingLocation(policy, resource, o.path),
    fingerprint: fingerprint({
      policy: policy.id,
      kind: resource.kind,
      resourceId: resource.id,
      itemKey: o.itemKey,
      offendingValue: o.offendingValue,
    }),
    baseline: null,
    fix: null,
    waiver: null,
  };
}

/** An evaluation error: of one resource (or item), or of the whole kind when `resource` is null. */
export function errorFinding(
  policy: PolicyDefinition,
  kind: string,
  resource: CollectedResource | null,
  message: string,
  path: string | null = null,
  itemKey: string | null = null,
  /** The error that made it, when one: a run-wide cause (api/run-wide.ts) marks the finding. */
  cause?: unknown,
): Finding {
  const id = resource?.id ?? ALL_RESOURCES_ID;
  return {
    ...(isRunWide(cause) ? { runWide: true } : {}),
    policy: policy.id,
    severity: policy.severity,
    status: 'error',
    resource: { kind, id, name: resource?.name ?? null },
    path,
    item: itemKey,
    message,
    location: findingLocation(policy, resource, path),
    fingerprint: fingerprint({ policy: policy.id, kind, resourceId: id, itemKey, offendingValue: { error: true } }),
    baseline: null,
    fix: null,
    waiver: null,
  };
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export { compareFindings, orderBySeverity, orderFindings } from '../core/order.js';
