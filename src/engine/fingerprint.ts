// A finding's fingerprint: a stable hash of what the finding is about, so baselines and
// waivers survive re-runs and a changed violation counts as a new one (DESIGN §7).
import { createHash } from 'node:crypto';
import { canonicalJson } from '../core/canonical-json.js';

/** Hex characters kept of the sha256. */
export const FINGERPRINT_LENGTH = 20;

export interface FingerprintInput {
  policy: string;
  kind: string;
  resourceId: string;
  itemKey: string | null;
  offendingValue: unknown;
}

export function fingerprint(f: FingerprintInput): string {
  const text = canonicalJson([f.policy, f.kind, f.resourceId, f.itemKey, canonicalJson(f.offendingValue)]);
  return createHash('sha256').update(text).digest('hex').slice(0, FINGERPRINT_LENGTH);
}
