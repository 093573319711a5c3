// A finding's fingerprint: a stable hash of what the finding is about, so baselines and
// waivers survive re-runs and a changed violation counts as a new one (DESIGN §7).
import { sha256 } from '../core/digest.js';
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

/**
 * Display names are not what a finding is about: a live read has none where a manifest gives one,
 * and a user renamed is the same grant. They are left out of the hashed value, at any depth, so
 * adding a manifest or renaming a principal never shows one finding as fixed and new.
 */
export const DISPLAY_NAME_KEYS: readonly string[] = ['name', 'displayName'];

function withoutDisplayNames(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDisplayNames);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => !DISPLAY_NAME_KEYS.includes(k)).map(([k, v]) => [k, withoutDisplayNames(v)]));
}

export function fingerprint(f: FingerprintInput): string {
  const text = canonicalJson([f.policy, f.kind, f.resourceId, f.itemKey, canonicalJson(withoutDisplayNames(f.offendingValue))]);
  return sha256(text).slice(0, FINGERPRINT_LENGTH);
}
