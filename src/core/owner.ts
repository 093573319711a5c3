// How a finding's owner reads in every format, and the key `--group-by owner` groups by.
import type { Finding } from './model.js';

/** `USER Ana Ruiz (7)`, `GROUP 303`, or empty when the owner is unknown. */
export function ownerLabel(f: Pick<Finding, 'owner'>): string {
  const o = f.owner;
  return o ? `${o.type} ${o.name ?? o.id}${o.name ? ` (${o.id})` : ''}` : '';
}

export const OWNER_UNKNOWN = 'owner unknown';

/** The heading a finding is grouped under by owner: its team, else its owner, else `owner unknown`. */
export function ownerGroup(f: Pick<Finding, 'owner' | 'team'>): string {
  if (f.team) return `team ${f.team}`;
  return ownerLabel(f) || OWNER_UNKNOWN;
}
