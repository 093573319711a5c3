// A dataset's row-level security (the `pdp` part) read over HTTP from the sandbox: whether PDP is
// on (the listing's flag where it carries one, else the policies), which policy is the open All
// Rows one (either of the platform's two marks), whom it reaches of the dataset's access list
// (type and id both), and the users its policies name who no longer exist.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import type { PdpPolicy } from '../../src/api/types.js';
import { createRunMemo } from '../../src/engine/memo.js';
import { isOpenPolicy, pdpPart } from '../../src/resources/pdp.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { PLANTED_SHARE_GROUPS } from '../../src/sandbox/demo.js';
import { allRowsPolicy, FILLER_SHARE_GROUP, regionPolicy } from '../../src/sandbox/sharing.js';
import type { Sandbox } from '../../src/sandbox/types.js';

const ID = 'ds-finance-certified';
/** The group the dataset is shared with (and its All Rows policy names). */
const FINANCE = PLANTED_SHARE_GROUPS.financeAdmins;

let s: Sandbox;
beforeEach(async () => {
  s = await startSandbox();
});
afterEach(() => s.close());

/** The part as a run loads it for the dataset (its listing item's fields in `listed`). */
function load(listed?: Record<string, unknown>) {
  const { once } = createRunMemo();
  return pdpPart.load(createClient({ baseUrl: s.baseUrl, token: s.token }), { kind: 'dataset', id: ID, name: null, doc: { id: ID }, source: null, ...(listed ? { listed } : {}) }, once);
}

const setPolicies = (policies: PdpPolicy[]) => s.state.sharing.pdp.set(ID, policies);

describe('the pdp part', () => {
  it('the demo dataset: on by its policies, the All Rows policy naming all three principals of its access list', async () => {
    // Access list: GROUP 305 (Finance Admins), USER 7, USER 9 (demo.ts); All Rows names users 7 and 9 and group 305 (Finance Admins).
    await expect(load()).resolves.toEqual({
      enabled: true,
      enabledFrom: 'policies',
      policies: [
        { id: 797, name: 'All Rows', open: true, users: ['7', '9'], groups: [String(FINANCE)], virtualUsers: [] },
        { id: 798, name: 'Region 798', open: false, users: [], groups: [String(FILLER_SHARE_GROUP)], virtualUsers: [] },
      ],
      openReach: 3,
      openReachesAll: true,
      departedUsers: [],
    });
    expect(s.counts).toMatchObject({ getPdpPolicies: 1, getDatasetPermissions: 1, searchUsers: 2 });
  });

  it('reaches a principal only by its type and id: a group named like a user reaches nothing', async () => {
    setPolicies([allRowsPolicy(ID, 1, [7], ['9']), regionPolicy(ID, 2, FILLER_SHARE_GROUP)]);
    await expect(load()).resolves.toMatchObject({ enabled: true, openReach: 1, openReachesAll: false });
  });

  it('without an open policy it reaches nobody; with only the open one PDP is off', async () => {
    setPolicies([regionPolicy(ID, 2, FILLER_SHARE_GROUP)]);
    await expect(load()).resolves.toMatchObject({ enabled: true, openReach: 0, openReachesAll: false });
    setPolicies([allRowsPolicy(ID, 1, [7, 9], [FINANCE])]);
    await expect(load()).resolves.toMatchObject({ enabled: false, enabledFrom: 'policies', openReach: 3, openReachesAll: true });
    setPolicies([]);
    await expect(load()).resolves.toEqual({ enabled: false, enabledFrom: 'policies', policies: [], openReach: 0, openReachesAll: false, departedUsers: [] });
  });

  it('an access list with no one on it is not reached in full by an open policy naming no one', async () => {
    s.state.datasetAccess.set(ID, { list: [], totalUserCount: 0 } as never);
    setPolicies([allRowsPolicy(ID, 1, [], []), regionPolicy(ID, 2, FILLER_SHARE_GROUP)]);
    await expect(load()).resolves.toMatchObject({ openReach: 0, openReachesAll: false });
  });

  it('takes the listing’s pdpEnabled when it is a boolean, over what the policies say', async () => {
    setPolicies([allRowsPolicy(ID, 1, [], []), regionPolicy(ID, 2, FILLER_SHARE_GROUP)]);
    await expect(load({ pdpEnabled: false })).resolves.toMatchObject({ enabled: false, enabledFrom: 'listing' });
    setPolicies([allRowsPolicy(ID, 1, [], [])]);
    await expect(load({ pdpEnabled: true })).resolves.toMatchObject({ enabled: true, enabledFrom: 'listing' });
    // Not a boolean, or not carried: the policies decide.
    await expect(load({ pdpEnabled: 'true' })).resolves.toMatchObject({ enabled: false, enabledFrom: 'policies' });
    await expect(load({ tags: '[]' })).resolves.toMatchObject({ enabled: false, enabledFrom: 'policies' });
  });

  it('reads the principals from `resources` where the lists are left out, as the captured All Rows policy is', async () => {
    // Access list: GROUP 305, USER 7, USER 9. The lists absent: only `resources` names whom All Rows reaches.
    const open = { name: 'All Rows', filterGroupId: 1, type: 'open', dataSourcePermissions: false, resources: { USER: [7, '9'], GROUP: [FINANCE], VIRTUAL_USER: ['vu:a1'] } };
    setPolicies([open, { ...regionPolicy(ID, 2, FILLER_SHARE_GROUP), userIds: null, resources: { USER: [77] } }]);
    await expect(load()).resolves.toMatchObject({
      policies: [
        { id: 1, open: true, users: ['7', '9'], groups: [String(FINANCE)], virtualUsers: ['vu:a1'] },
        { id: 2, open: false, users: ['77'], groups: [String(FILLER_SHARE_GROUP)], virtualUsers: [] },
      ],
      openReach: 3,
      openReachesAll: true,
      departedUsers: ['77'],
    });
  });

  it('the sandbox answers `resources` beside the lists, as the platform does with load_associations; the two agreeing read once', async () => {
    const answer = await createClient({ baseUrl: s.baseUrl, token: s.token }).getPdpPolicies(ID);
    expect(answer.map((p) => p.resources)).toEqual([{ USER: [7, 9], GROUP: [FINANCE] }, { GROUP: [FILLER_SHARE_GROUP] }]);
    // The same ids in another order, repeated, or as numbers against strings: the same principals.
    setPolicies([{ ...allRowsPolicy(ID, 1, [7, 9, 7], [FINANCE]), resources: { USER: ['9', '7'], GROUP: [FINANCE] } }, regionPolicy(ID, 2, FILLER_SHARE_GROUP)]);
    await expect(load()).resolves.toMatchObject({ openReach: 3, openReachesAll: true });
  });

  it('a policy whose list and `resources` name different principals is drift, never a reach read from one of them', async () => {
    setPolicies([{ ...allRowsPolicy(ID, 1, [], [FINANCE]), resources: { USER: [7, 9], GROUP: [FINANCE] } }, regionPolicy(ID, 2, FILLER_SHARE_GROUP)]);
    await expect(load()).rejects.toThrow(
      'getPdpPolicies: API drift at policy 1 of dataset ds-finance-certified: userIds [] and resources.USER [7,9] name different principals',
    );
    setPolicies([allRowsPolicy(ID, 1, [7, 9], [FINANCE]), { ...regionPolicy(ID, 2, FILLER_SHARE_GROUP), resources: { GROUP: [FILLER_SHARE_GROUP, 5] } }]);
    await expect(load()).rejects.toThrow(`groupIds [${FILLER_SHARE_GROUP}] and resources.GROUP [${FILLER_SHARE_GROUP},5] name different principals`);
    setPolicies([{ ...allRowsPolicy(ID, 1, [7, 9], [FINANCE]), virtualUserIds: ['vu:a1'], resources: { USER: [7, 9], GROUP: [FINANCE], VIRTUAL_USER: ['vu:a2'] } }]);
    await expect(load()).rejects.toThrow('virtualUserIds ["vu:a1"] and resources.VIRTUAL_USER ["vu:a2"] name different principals');
  });

  it('names each deleted or unknown user its policies name once; a deactivated user has not departed', async () => {
    // 77 is deleted, 31 deactivated, 99999 in neither listing (demo-people.ts).
    setPolicies([allRowsPolicy(ID, 1, [77, 31], []), { ...regionPolicy(ID, 2, FILLER_SHARE_GROUP), userIds: [99999, 77, 7] }]);
    await expect(load()).resolves.toMatchObject({ departedUsers: ['77', '99999'] });
  });
});

describe('isOpenPolicy', () => {
  it('takes either of the platform’s marks of the open All Rows policy', () => {
    const region = regionPolicy(ID, 2, FILLER_SHARE_GROUP);
    expect(isOpenPolicy(region)).toBe(false);
    expect(isOpenPolicy({ ...region, type: 'open' })).toBe(true);
    expect(isOpenPolicy({ ...region, dataSourcePermissions: false })).toBe(true);
    expect(isOpenPolicy({ ...region, type: 'filter' })).toBe(false);
  });
});
