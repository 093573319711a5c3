// A finding's fingerprint: a stable hash of what the finding is about, so baselines and
// waivers survive re-runs and a changed violation counts as a new one (DESIGN §7).
import { createHash } from 'node:crypto';

/** Hex characters kept of the sha256. */
export const FINGERPRINT_LENGTH = 20;

/** JSON with object keys sorted at every level; `undefined` members dropped as JSON does. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

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
