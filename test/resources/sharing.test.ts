// The sharing forms of pages and cards: an access list held to the item asked about (another
// item's list, or another form, is drift), each principal of the manifest and the live sharing
// compared (gained outside the repository, lost, matching), and the change to make by hand for
// each, since no documented write removes a share.
import { describe, expect, it } from 'vitest';
import type { ContentAccessList } from '../../src/api/types.js';
import { contentAccess, restoreSharingByHand, type ShareDrift, shareChangeByHand, sharingDrift } from '../../src/resources/sharing.js';

const list = (resource: unknown, over: Partial<ContentAccessList> = {}) =>
  ({
    users: [{ id: 7, displayName: 'Ana Ruiz' }, { id: 9 }],
    groups: [{ id: 88, name: 'Finance', users: [{ id: 7 }, { id: 12 }] }, { id: 89 }],
    totalUserCount: 3,
    resource,
    ...over,
  }) as unknown as ContentAccessList;

describe('contentAccess', () => {
  it('reads users, groups with their users and the distinct count, ids as text, missing names null', () => {
    expect(contentAccess(list({ type: 'page', id: '8001' }), { type: 'page', id: '8001' }, 'page 8001')).toEqual({
      users: [{ id: '7', name: 'Ana Ruiz' }, { id: '9', name: null }],
      groups: [{ id: '88', name: 'Finance', users: ['7', '12'] }, { id: '89', name: null, users: [] }],
      totalUserCount: 3,
    });
  });

  it('another form or another item is drift, said with what came; no resource at all too', () => {
    expect(() => contentAccess(list({ type: 'page', id: '7001' }), { type: 'badge', id: '7001' }, 'card 7001')).toThrow(
      `card 7001: API drift at resource.type: "page", expected "badge" (the page access list's form, with resource.type 'badge')`,
    );
    expect(() => contentAccess(list(undefined), { type: 'page', id: '8001' }, 'page 8001')).toThrow('page 8001: API drift at resource.type: null, expected "page"');
    expect(() => contentAccess(list({ type: 'page', id: '8002' }), { type: 'page', id: '8001' }, 'page 8001')).toThrow('page 8001: API drift at resource.id: the answer is about "8002"');
  });
});

describe('sharingDrift', () => {
  it('each principal of either side once: gained outside the repository, lost, or matching, named by the manifest first', () => {
    const declared = { users: [{ id: '7', name: 'Ana' }, { id: '22' }], groups: [{ id: '88', name: 'Finance' }] };
    const live = { users: [{ id: '7', name: 'Ana Ruiz' }, { id: '9', name: 'Ben' }], groups: [{ id: '88', name: null, users: [] }, { id: '7', name: null, users: [] }], totalUserCount: 4 };
    expect(sharingDrift('page 8002', declared, live)).toEqual([
      { type: 'USER', id: '7', name: 'Ana', matches: true, gained: false, lost: false, description: 'USER 7 (Ana) matches' },
      { type: 'USER', id: '22', name: null, matches: false, gained: false, lost: true, description: 'USER 22 lost access to page 8002 outside the repository' },
      { type: 'GROUP', id: '88', name: 'Finance', matches: true, gained: false, lost: false, description: 'GROUP 88 (Finance) matches' },
      { type: 'USER', id: '9', name: 'Ben', matches: false, gained: true, lost: false, description: 'USER 9 (Ben) was given access to page 8002 outside the repository' },
      // A group whose id is a declared user's is another principal.
      { type: 'GROUP', id: '7', name: null, matches: false, gained: true, lost: false, description: 'GROUP 7 was given access to page 8002 outside the repository' },
    ]);
    expect(sharingDrift('card 7001', { users: [], groups: [] }, { users: [], groups: [], totalUserCount: 0 })).toEqual([]);
  });
});

const drift = (over: Partial<ShareDrift>): ShareDrift => ({ type: 'USER', id: '9', name: 'Ben', matches: false, gained: false, lost: false, description: '', ...over });

describe('the change by hand', () => {
  it('says what to remove, what to share again, or that nothing changes', () => {
    expect(shareChangeByHand('page 8002', drift({ gained: true }))).toBe(
      'remove USER 9 (Ben) from the sharing of page 8002 (Share › the user › remove), or declare it in the manifest; no documented write removes a share',
    );
    expect(shareChangeByHand('card 7001', drift({ type: 'GROUP', id: '88', name: null, gained: true }))).toBe(
      'remove GROUP 88 from the sharing of card 7001 (Share › the group › remove), or declare it in the manifest; no documented write removes a share',
    );
    expect(shareChangeByHand('page 8002', drift({ lost: true }))).toBe(
      'USER 9 (Ben) is declared but not shared: share page 8002 with it again by hand, or remove it from the manifest (re-sharing widens access: never applied)',
    );
    expect(shareChangeByHand('page 8002', drift({ matches: true }))).toBe('nothing to change on page 8002');
    expect(shareChangeByHand('page 8002', undefined)).toBe('nothing to change on page 8002');
  });

  it('the restore fix finds the drift item its path names, and changes nothing in the document', () => {
    const fix = restoreSharingByHand((doc) => `page ${doc.id}`);
    const doc = { id: 8002, drift: [drift({ matches: true }), drift({ id: '22', name: null, lost: true }), drift({ id: '23', name: null, gained: true })] };
    expect(fix.byHand(doc, true, 'drift[2]')).toBe('remove USER 23 from the sharing of page 8002 (Share › the user › remove), or declare it in the manifest; no documented write removes a share');
    expect(fix.byHand(doc, true, 'drift[1]')).toMatch(/^USER 22 is declared but not shared/);
    expect(fix.byHand(doc, true, 'drift[12]')).toBe('nothing to change on page 8002');
    const thirteen = { id: 8003, drift: [...Array.from({ length: 12 }, () => drift({ matches: true })), drift({ id: '30', name: null, gained: true })] };
    expect(fix.byHand(thirteen, true, 'drift[12]')).toMatch(/^remove USER 30 from the sharing of page 8003/);
    // A path not ending in an index, or none: no item, nothing said to change.
    expect(fix.byHand(doc, true, 'drift[2].id')).toBe('nothing to change on page 8002');
    expect(fix.byHand(doc, true, null)).toBe('nothing to change on page 8002');
    expect(fix.apply(doc)).toEqual(doc);
    expect(fix.apply(doc)).not.toBe(doc);
    expect(fix).toMatchObject({ name: 'restore', perItem: true, reads: ['drift'], schema: { const: true } });
  });
});
