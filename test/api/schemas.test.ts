// The answers' schemas where a value astray would otherwise be read as a legitimate one: every
// item of a paged listing, the identity search's typed attributes, the PDP policies' user ids.
import { describe, expect, it } from 'vitest';
import { OPERATION_IDS, operation } from '../../src/api/operations.js';
import { checkResponse } from '../../src/api/drift.js';
import type { Schema } from '../../src/api/schemas.js';

const pagedListings = OPERATION_IDS.filter((id) => operation(id).item !== undefined);

/** A page of `id` holding `items` where the row's page shape (or a bare array) puts them. */
function pageOf(id: (typeof OPERATION_IDS)[number], items: unknown[]): unknown {
  const key = operation(id).page?.items[0] ?? '';
  return key === '' ? items : { [key]: items };
}

describe('paged listings', () => {
  it.each(pagedListings)('%s: an item without its required fields is drift at that item', (id) => {
    const key = operation(id).page?.items[0] ?? '';
    const problem = checkResponse(operation(id).response as Schema, pageOf(id, [{}]));
    expect(problem?.problem).toBe('missing');
    expect(problem?.field.startsWith(key === '' ? '[0].' : `${key}[0].`)).toBe(true);
  });

  it('the role holders: a user id that is not a number is drift', () => {
    const page = { users: [{ userId: 7 }, { userId: 'seven' }], totalCount: 2 };
    expect(checkResponse(operation('listRoleUsers').response as Schema, page)).toEqual({ field: 'users[1].userId', problem: 'expected integer, got string' });
  });

  it("the page summary: an owner's id that is not a number is drift", () => {
    const page = { pageAdminSummaries: [{ pageId: 8001, owners: [{ id: { id: 7 }, type: 'USER' }] }] };
    expect(checkResponse(operation('listPages').response as Schema, page)).toEqual({ field: 'pageAdminSummaries[0].owners[0].id', problem: 'expected integer, got object' });
  });
});

describe('the identity search: the attributes steward reads are typed', () => {
  const search = operation('searchUsers').response as Schema;
  const user = (attributes: unknown[]) => ({ count: 1, users: [{ id: 5, attributes: [{ key: 'isActive', values: [true] }, ...attributes] }] });

  it.each([
    ['lastLogin', ['yesterday'], 'expected integer or null, got string'],
    ['isPending', ['true'], 'expected boolean or null, got string'],
    ['isSystemUser', [1], 'expected boolean or null, got integer'],
    ['roleId', [{ id: 1 }], 'expected integer or null, got object'],
    ['emailAddress', [['a@b.c']], 'expected string or null, got array'],
  ])('%s of %j is drift at that value', (key, values, problem) => {
    expect(checkResponse(search, user([{ key, values }]))).toEqual({ field: 'users[0].attributes[1].values[0]', problem });
  });

  it('an attribute with no value, a null one, or one steward never reads passes', () => {
    const attributes = [
      { key: 'lastLogin', values: [] },
      { key: 'lastActivity', values: [null] },
      { key: 'created', values: [1735689600000] },
      { key: 'employeeNumber', values: ['1234'] },
      { key: 'hireDate', values: [{ any: 'thing' }] },
    ];
    expect(checkResponse(search, user(attributes))).toBeUndefined();
  });
});

describe('PDP policies', () => {
  const policies = operation('getPdpPolicies').response as Schema;
  const policy = (fields: Record<string, unknown>) => [{ filterGroupId: 797, name: 'All Rows', ...fields }];

  it('user ids are numbers or strings of digits; groups and virtual users may be other strings', () => {
    expect(checkResponse(policies, policy({ userIds: [7, '55874022'], groupIds: ['g-88', 12], virtualUserIds: ['vu:00000000-0000-0000-0000-0000000000a1'] }))).toBeUndefined();
  });

  it('a user id of other text is drift', () => {
    expect(checkResponse(policies, policy({ userIds: [7, 'someone'] }))).toEqual({ field: '[0].userIds[1]', problem: 'must match pattern "^[0-9]+$"' });
  });
});
