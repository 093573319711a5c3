// The card kind over HTTP from the sandbox: what it collects (the scope's cards, the searched ones
// minus `exclude`, and every card a schedule sends, with its senders) and its owner parts. An
// owner answer steward cannot read as the platform means it is an error of that card, never an
// owner-less pass.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/api/index.js';
import type { InstanceApi } from '../../../src/api/types.js';
import { createRunMemo } from '../../../src/engine/memo.js';
import { collectAll } from '../../../src/resources/common.js';
import { card } from '../../../src/resources/kinds/card.js';
import type { CollectedResource, Scope } from '../../../src/resources/types.js';
import { PLANTED_SHARE_GROUPS } from '../../../src/sandbox/demo.js';
import { PLANTED_PEOPLE } from '../../../src/sandbox/demo-people.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import type { Sandbox } from '../../../src/sandbox/types.js';
import { operationsOf } from '../../../src/library/doctor.js';
import { compileAll } from '../../../src/policy/compile.js';
import { parsePolicyText } from '../../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../../src/resources/index.js';
import { DEMO, policyEntry } from '../../engine/harness.js';

let s: Sandbox;
let api: InstanceApi;
beforeEach(async () => {
  s = await startSandbox();
  api = createClient({ baseUrl: s.baseUrl, token: s.token, retryBaseDelayMs: 1 });
});
afterEach(() => s.close());

const scope = (over: Partial<Scope> = {}): Scope => ({ ids: {}, paths: {}, discover: {}, ...over });
const collect = (sc: Scope) => collectAll(card, { api, scope: sc, manifestFiles: {}, displayRoot: DEMO });
const resource = (id: string): CollectedResource => ({ kind: 'card', id, name: null, doc: { id: Number(id), schedules: [], declared: false }, source: null });

/** One part of one card, loaded as a run loads it: a client and a memo of its own (the client keeps a listing's pages). */
const load = (part: keyof typeof card.parts, id: string) =>
  card.parts[part]!.load(createClient({ baseUrl: s.baseUrl, token: s.token, retryBaseDelayMs: 1 }), resource(id), createRunMemo().once);

/** The card search answers these items, on its one page. */
const searched = (...items: Record<string, unknown>[]) =>
  s.scriptFault('searchCards', { status: 200, body: JSON.stringify({ totalResultCount: items.length, searchObjects: items }) });
/** The card admin summary answers these items, on its one page. */
const summarised = (...items: Record<string, unknown>[]) => s.scriptFault('listCardSummaries', { status: 200, body: JSON.stringify({ cardAdminSummaries: items }) });

describe('the cards a run collects', () => {
  it('scope ids (whole numbers as numbers, anything else kept as written) and every card a schedule sends, its senders in id order', async () => {
    const senders = s.state.schedules.filter((x) => x.cardId === 7002).map((x) => x.id);
    expect(senders.length).toBeGreaterThan(1);
    // Listed newest first, so the senders reach the kind out of order.
    s.state.schedules.reverse();
    // JavaScript reads '0x10' as 16 and '1e3' as 1000: only digits throughout are a number.
    const named = ['123', 'c-7', '12a', '0x10', '1e3', '9007199254740993'];
    const cards = await collect(scope({ ids: { cards: named } }));
    const byId = new Map(cards.map((c) => [c.id, c.doc]));
    expect(named.map((id) => byId.get(id)?.id)).toEqual([123, 'c-7', '12a', '0x10', '1e3', '9007199254740993']);
    expect(byId.get('7002')?.schedules).toEqual([...senders].sort((a, b) => a - b));
    expect(byId.get('7001')).toEqual({ id: 7001, schedules: [9006], declared: false });
  });

  it('a schedule of a page or a view (cardId null, absent or the platform\'s 0) sends no card', async () => {
    const [first, second, third] = s.state.schedules;
    Object.assign(first!, { cardId: null });
    Object.assign(second!, { cardId: 0 });
    delete (third as { cardId?: unknown }).cardId;
    const ids = (await collect(scope())).map((c) => c.id);
    // Exactly the cards the other schedules send: nothing named by no scope.
    const sent = new Set(s.state.schedules.slice(3).flatMap((x) => (x.cardId ? [String(x.cardId)] : [])));
    expect(ids.sort()).toEqual([...sent].sort());
    expect(ids.length).toBeGreaterThan(0);
  });

  it('discovery: each searched card with the search\'s name; an excluded one is left out, even when a schedule sends it', async () => {
    const cards = await collect(scope({ discover: { cards: { exclude: ['7001'] } } }));
    const ids = cards.map((c) => c.id);
    const sent = s.state.schedules.flatMap((x) => (x.cardId ? [String(x.cardId)] : []));
    expect(ids.sort()).toEqual([...new Set([...s.state.cards, ...sent])].filter((id) => id !== '7001').sort());
    expect(cards.find((c) => c.id === '7002')?.name).toBe('Card 7002');
    expect(s.counts.searchCards).toBe(1);
  });
});

describe('the owner the card search names', () => {
  const item = (ownedById: unknown, ownedByType?: string) => ({ databaseId: 7001, name: 'Card 7001', ...(ownedById === undefined ? {} : { ownedById }), ...(ownedByType ? { ownedByType } : {}) });

  it('a string or numeric id, a user unless the search says GROUP; null is no owner', async () => {
    searched(item(String(PLANTED_PEOPLE.eva), 'USER'));
    await expect(load('owner', '7001')).resolves.toMatchObject({ type: 'USER', id: String(PLANTED_PEOPLE.eva), state: 'deactivated' });
    searched(item(PLANTED_PEOPLE.eva));
    await expect(load('owner', '7001')).resolves.toMatchObject({ type: 'USER', id: String(PLANTED_PEOPLE.eva) });
    searched(item('305', 'GROUP'));
    await expect(load('owner', '7001')).resolves.toMatchObject({ type: 'GROUP', id: '305' });
    searched(item(null));
    await expect(load('owner', '7001')).resolves.toBeNull();
  });

  it('an empty, absent or non-id value is drift of that card, never an owner-less card', async () => {
    for (const [value, shown] of [['', '""'], [undefined, '"missing"'], [{ id: 31 }, '{"id":31}'], [true, 'true']] as const) {
      searched(item(value));
      await expect(load('owner', '7001')).rejects.toThrow(`searchCards: API drift at ownedById of card 7001: ${shown}`);
    }
  });

  it('a card the search does not return: its owner is unknown, an error naming it', async () => {
    searched(item('31'));
    await expect(load('owner', '7002')).rejects.toThrow(/\bcard 7002\b/);
  });
});

describe('the owners the card admin summary names', () => {
  it('as listed, ids as strings; a card missing from the summary or listed without owners is an error of that card', async () => {
    summarised(
      { id: 7001, owners: [{ id: '31', type: 'USER', displayName: 'Eva Novak' }, { id: '305', type: 'GROUP' }] },
      { id: 7002, owners: null },
    );
    const { once } = createRunMemo();
    const owners = (id: string) => card.parts.owners!.load(api, resource(id), once);
    await expect(owners('7001')).resolves.toEqual([{ type: 'USER', id: '31', name: 'Eva Novak' }, { type: 'GROUP', id: '305', name: null }]);
    await expect(owners('7002')).rejects.toThrow('listCardSummaries: API drift at owners of card 7002: null, so its owners are unknown');
    await expect(owners('7003')).rejects.toThrow('listCardSummaries: card 7003 is not in the card admin summary, so its owners are unknown');
    expect(s.counts.listCardSummaries).toBe(1);
  });

  it('resolvedOwners: a user and a group of the same id are two owners, each judged by its own state', async () => {
    const group = PLANTED_SHARE_GROUPS.salesAnalysts;
    searched({ databaseId: 7001, name: 'Card 7001', ownedById: String(group), ownedByType: 'USER' });
    summarised({ id: 7001, owners: [{ id: String(group), type: 'GROUP' }] });
    const owners = (await load('resolvedOwners', '7001')) as { type: string; id: string; state: string }[];
    expect(owners.map((o) => [o.type, o.id, o.state])).toEqual([
      ['USER', String(group), 'unknown'],
      ['GROUP', String(group), 'active'],
    ]);
  });
});

describe('the card document', () => {
  /** A policy on cards asserting `assert`, compiled and type-checked against the kinds. */
  const compiled = (assert: string) => {
    const { policies, problems } = parsePolicyText(`policies:${policyEntry('card-policy', 'card', assert)}`, 'policies/cards.yaml', { kinds: RESOURCE_KINDS });
    expect(problems).toEqual([]);
    return compileAll(policies, RESOURCE_KINDS);
  };

  it('is closed: a policy naming a field cards do not have is a problem at compile, never a silent null', () => {
    expect(() => compiled('resource.ownr == null')).toThrow(/^policies\/cards\.yaml:\d+:\d+: .*ownr/);
    expect(compiled('resource.owner == null')).toHaveLength(1);
  });

  it('each part names its read, so doctor probes what a policy reading it needs', () => {
    const reads = (assert: string) => operationsOf(compiled(assert)[0]!, null);
    expect(reads('size(resource.access.users) < 5')).toEqual(['listReportSchedules', 'getCardAccessList']);
    expect(reads('resource.drift == []')).toEqual(['listReportSchedules', 'getCardAccessList']);
    expect(reads('size(resource.owners) > 0')).toEqual(['listReportSchedules', 'listCardSummaries']);
    expect(reads('resource.owner == null')).toEqual(['listReportSchedules', 'searchUsers', 'searchCards']);
  });

  it('drift of a declared card names the card in each description and in the change by hand', async () => {
    s.scriptFault('getCardAccessList', { status: 200, body: JSON.stringify({ resource: { type: 'badge', id: '7001' }, users: [{ id: 31, displayName: 'Eva Novak' }], groups: [], totalUserCount: 1 }) });
    const declared: CollectedResource = { ...resource('7001'), doc: { id: 7001, schedules: [], declared: true, shares: { users: [], groups: [] } } };
    const drift = await card.parts.drift!.load(api, declared, createRunMemo().once);
    expect(drift).toEqual([
      { type: 'USER', id: '31', name: 'Eva Novak', matches: false, gained: true, lost: false, description: 'USER 31 (Eva Novak) was given access to card 7001 outside the repository' },
    ]);
    // Its fix is the change to make by hand, naming the card.
    expect(card.fixes!.restore!.byHand!({ ...declared.doc, id: 7001, drift }, true, 'drift[0]')).toBe(
      'remove USER 31 (Eva Novak) from the sharing of card 7001 (Share › the user › remove), or declare it in the manifest; no documented write removes a share',
    );
  });

  it('drift of a card no manifest declares is empty, with no read', async () => {
    await expect(load('drift', '7001')).resolves.toEqual([]);
    expect(s.counts.getCardAccessList ?? 0).toBe(0);
  });
});
