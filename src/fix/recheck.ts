// What plan.ts needs from the rest of steward: the declared resources (read again from the
// manifests: local files, no request) and a checker that re-evaluates the selected policies
// on a fixed document with the engine's own selectItems/judgeItems.
import type { InstanceApi } from '../api/types.js';
import { judgeItems, selectItems } from '../engine/evaluate.js';
import type { CompiledPolicy } from '../policy/compile.js';
import type { CollectedResource, ManifestFiles, ResourceKind } from '../resources/types.js';
import type { DocChecker, DocViolation } from './plan.js';

/** Violations (and evaluation errors, which a fix must not introduce either) of every policy of the resource's kind. */
export function createDocChecker(policies: CompiledPolicy[], now: Date): DocChecker {
  return async (resource, doc) => {
    const out: DocViolation[] = [];
    for (const policy of policies) {
      if (policy.def.resource !== resource.kind) continue;
      const env = { params: policy.params, now };
      for (const o of judgeItems(policy, doc, selectItems(policy, doc, env), env)) {
        if (!o.passed) out.push({ policy: policy.id, path: o.path });
      }
    }
    return out;
  };
}

/** The resources of the declared kinds (queues, data files) from their manifests. */
export async function collectDeclared(
  kinds: Record<string, ResourceKind>,
  ctx: { api: InstanceApi; manifestFiles: ManifestFiles; displayRoot: string },
): Promise<CollectedResource[]> {
  const out: CollectedResource[] = [];
  for (const kind of Object.values(kinds)) {
    if (kind.declare && Object.keys(kind.fixes ?? {}).length > 0) out.push(...(await kind.declare(ctx)));
  }
  return out;
}
