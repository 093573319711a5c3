// Row-level security (PDP) of a dataset as one part: its policies with their principals, whether
// PDP is on, whom the open "All Rows" policy reaches against the dataset's access list, and the
// users policies name who no longer exist. One PDP read per dataset; the access list and the user
// directory are the reads other parts and kinds share.
import type { PdpPolicy } from '../api/types.js';
import { userDirectory, USER_STATES } from './people.js';
import type { DocumentPart } from './types.js';

/**
 * Whether a dataset's PDP is on. The platform's own state read (`GET /api/query/v2/data-control/
 * {id}`) is not shown publicly, and the v3 listing's `pdp` part has no captured shape: steward
 * takes a listing's `pdpEnabled` boolean when one carries it, and otherwise decides from the
 * policies: on when at least one policy other than the open All Rows one exists. Wrong only for
 * a dataset whose PDP was switched off with its policies kept (then judged as protected).
 */
export const PDP_ENABLED_RULE = 'pdpEnabled where a listing carries it; else on when a policy other than the open All Rows one exists';

/** The open "All Rows" policy: `type: "open"`, or `dataSourcePermissions: false` (pdp-filter-groups.json). */
export const isOpenPolicy = (p: PdpPolicy): boolean => p.type === 'open' || p.dataSourcePermissions === false;

const ids = (list: readonly (number | string)[] | null | undefined): string[] => (list ?? []).map(String);

/**
 * A policy's principals of one kind. With `load_associations` the platform names them in a list
 * and again in `resources` (pdp-filter-groups.json), leaving either out where it is empty: the one
 * given is read. Where both are given they must name the same ids, or the All Rows reach and the
 * departed users would follow whichever form was read: an answer steward cannot trust.
 */
function principalsOf(p: PdpPolicy, datasetId: string, field: 'userIds' | 'groupIds' | 'virtualUserIds', key: 'USER' | 'GROUP' | 'VIRTUAL_USER'): string[] {
  const list = p[field];
  const byType = p.resources?.[key];
  if (list == null || byType == null) return ids(list ?? byType);
  const named = (l: readonly (number | string)[]) => JSON.stringify([...new Set(ids(l))].sort());
  if (named(list) !== named(byType)) {
    throw new Error(`getPdpPolicies: API drift at policy ${p.filterGroupId} of dataset ${datasetId}: ${field} ${JSON.stringify(list)} and resources.${key} ${JSON.stringify(byType)} name different principals`);
  }
  return ids(list);
}

export const pdpPart: DocumentPart = {
  name: 'pdp',
  operation: 'getPdpPolicies',
  alsoReads: ['getDatasetPermissions', 'searchUsers'],
  // doctor: the policies alone, not the user directory read whole (a probe of its own).
  probe: (api, r) => api.getPdpPolicies(String(r.doc.id)),
  async load(api, r, once) {
    const id = String(r.doc.id);
    const [policies, access, directory] = await Promise.all([api.getPdpPolicies(id), api.getDatasetPermissions(id), userDirectory(api, once)]);
    const shaped = policies.map((p) => ({
      id: p.filterGroupId,
      name: p.name,
      open: isOpenPolicy(p),
      users: principalsOf(p, id, 'userIds', 'USER'),
      groups: principalsOf(p, id, 'groupIds', 'GROUP'),
      virtualUsers: principalsOf(p, id, 'virtualUserIds', 'VIRTUAL_USER'),
    }));
    const open = shaped.find((p) => p.open) ?? null;
    const listed = r.listed && typeof r.listed.pdpEnabled === 'boolean' ? r.listed.pdpEnabled : undefined;
    const enabled = listed ?? shaped.some((p) => !p.open);
    // Whom the open policy reaches: every principal of the access list it names.
    const principals = access.list.map((e) => `${e.type}:${e.id}`);
    const named = new Set(open ? [...open.users.map((u) => `USER:${u}`), ...open.groups.map((g) => `GROUP:${g}`)] : []);
    const openReach = principals.filter((p) => named.has(p)).length;
    const departedUsers = [...new Set(shaped.flatMap((p) => p.users))].filter((u) => {
      const state = directory.get(u)?.state;
      return state === undefined || state === 'deleted';
    });
    return { enabled, enabledFrom: listed === undefined ? 'policies' : 'listing', policies: shaped, openReach, openReachesAll: open !== null && principals.length > 0 && openReach === principals.length, departedUsers };
  },
};

export const pdpSchema = {
  type: 'object',
  description: `row-level security: ${PDP_ENABLED_RULE}`,
  properties: {
    enabled: { type: 'boolean' },
    enabledFrom: { enum: ['listing', 'policies'] },
    policies: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          name: { type: 'string' },
          open: { type: 'boolean', description: 'the open "All Rows" policy' },
          users: { type: 'array', items: { type: 'string' } },
          groups: { type: 'array', items: { type: 'string' } },
          virtualUsers: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    openReach: { type: 'integer', description: "principals of the dataset's access list the open All Rows policy names" },
    openReachesAll: { type: 'boolean', description: 'the open All Rows policy names every principal of the access list' },
    departedUsers: { type: 'array', items: { type: 'string' }, description: `users the policies name who are deleted or in no user listing (states: ${USER_STATES.join(', ')})` },
  },
};
