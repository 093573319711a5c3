// What identifies a plan: its manifests (each once) and a hash of its requests and of those
// manifests' contents. Shared by planning and by resuming from a journal.
import { sha256 } from '../core/digest.js';
import { compareText } from '../core/order.js';
import type { ManifestRef, PlannedChange } from './types.js';

export function uniqueManifests(refs: (ManifestRef | null)[]): ManifestRef[] {
  const byFile = new Map<string, ManifestRef>();
  for (const ref of refs) if (ref) byFile.set(ref.file, ref);
  return [...byFile.values()].sort((a, b) => compareText(a.file, b.file));
}

/** Hash of the changes' requests and the manifests' sha256s. */
export function planId(changes: PlannedChange[], manifests: ManifestRef[]): string {
  const material = JSON.stringify({
    changes: changes.map((c) => [c.resource.kind, c.resource.id, c.request]),
    manifests: manifests.map((m) => [m.file, m.sha256]),
  });
  return sha256(material).slice(0, 16);
}
