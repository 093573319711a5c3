// The sandbox's user search (src/sandbox/api-identity.ts): every user once, in name order, paged
// by the body's offset; a listing is filtered and sorted at its first page and later pages slice
// it, so a user added mid-listing shows in the next listing, not shifted into this one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { call } from './helpers.js';

interface SearchAnswer {
  count?: number;
  users: { id: number; displayName: string }[];
}

let s: Sandbox;

beforeAll(async () => {
  s = await startSandbox({ size: { users: 1_000, schedules: 0, datasets: 0, cards: 0, groups: 0, accessTokens: 0 } });
});
afterAll(() => s.close());

const search = async (body: Record<string, unknown>) => {
  const res = await call(s, 'POST', '/api/identity/v1/users/search', { body: { showCount: true, ...body } });
  expect(res.status).toBe(200);
  return res.json<SearchAnswer>();
};

/** Every page of one listing, 100 a page, from offset 0. */
async function listing(criteria: Record<string, unknown>, between?: () => void) {
  const first = await search({ ...criteria, limit: 100, offset: 0 });
  between?.();
  const users = [...first.users];
  for (let offset = 100; offset < first.count!; offset += 100) users.push(...(await search({ ...criteria, limit: 100, offset })).users);
  return { count: first.count!, ids: users.map((u) => u.id), names: users.map((u) => u.displayName) };
}

const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id);

describe('the user search', () => {
  it('pages through the live users, the deleted ones or both, each once and in name order', async () => {
    const users = s.state.people.users;
    const expected = (keep: (state: string) => boolean) => users.filter((u) => keep(u.state)).sort(byName).map((u) => u.id);
    const live = await listing({});
    const deleted = await listing({ onlyDeleted: true });
    const all = await listing({ includeDeleted: true });
    expect(live.ids).toEqual(expected((state) => state !== 'deleted'));
    expect(deleted.ids).toEqual(expected((state) => state === 'deleted'));
    expect(all.ids).toEqual(expected(() => true));
    expect([live.count, deleted.count, all.count]).toEqual([live.ids.length, deleted.ids.length, users.length]);
    expect(deleted.count).toBeGreaterThan(0);
    expect(live.count + deleted.count).toBe(all.count);
  });

  it('keeps a listing as its first page found it: a user added mid-listing is in the next one', async () => {
    const before = await listing({});
    const added = { ...s.state.people.users[0]!, id: 990_001, name: '!first by name', email: 'first@acme.example', state: 'active' as const };
    const during = await listing({}, () => s.state.people.users.push(added));
    // The pages after the first slice the listing the first computed: none shifted by one.
    expect(during.ids).toEqual(before.ids);
    const after = await listing({});
    expect(after.ids).toEqual([added.id, ...before.ids]);
    expect(after.count).toBe(before.count + 1);
  });
});
