// Every rule of fix planning, each on a kind made for the test ("box": a flag and a list of
// items with grants) so that one rule at a time decides: what is not planned and why (word for
// word), the order item fixes are applied in, what one change merges, and what a fix that would
// widen access, break another policy, change nothing or not resolve its finding becomes.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/model.js';
import { type DocChecker, type DocViolation, findingsWithFixes, planFixes, type PlanInput } from '../../src/fix/plan.js';
import type { CollectedResource, FixKind, ResourceDocument, ResourceKind } from '../../src/resources/types.js';
import { makeFinding } from '../fixtures/report.js';

interface Item {
  id: string;
  grants: string[];
}
const itemsOf = (doc: ResourceDocument) => (doc.items as Item[] | undefined) ?? [];
const indexOf = (path: string | null) => Number(/\[(\d+)\]$/.exec(path ?? '')?.[1]);

const FIXES: Record<string, FixKind> = {
  revoke: {
    name: 'revoke',
    schema: {},
    perItem: true,
    apply: (doc, value, path) => ({ ...doc, items: itemsOf(doc).map((it, i) => (i === indexOf(path) ? { ...it, grants: it.grants.filter((g) => !(value as string[]).includes(g)) } : it)) }),
  },
  drop: { name: 'drop', schema: {}, perItem: true, apply: (doc, _v, path) => ({ ...doc, items: itemsOf(doc).filter((_, i) => i !== indexOf(path)) }) },
  clear: { name: 'clear', schema: {}, perItem: false, warning: 'clearing is final', apply: (doc) => ({ ...doc, flag: false }) },
  noop: { name: 'noop', schema: {}, perItem: false, apply: (doc) => ({ ...doc }) },
  widen: { name: 'widen', schema: {}, perItem: false, apply: (doc) => ({ ...doc, items: [...itemsOf(doc), { id: 'new', grants: ['ADMIN'] }] }) },
  act: { name: 'act', schema: {}, perItem: false, apply: (doc) => doc, request: (doc) => ({ operation: 'actOn', method: 'POST', path: `/box/${doc.id}/act`, body: null }) },
  optin: {
    name: 'optin',
    schema: {},
    perItem: false,
    optIn: true,
    warning: 'it replaces the list',
    apply: (doc) => doc,
    request: (doc, value) => ({ operation: 'optin', method: 'POST', path: `/box/${doc.id}/optin`, body: value }),
  },
  hand: { name: 'hand', schema: {}, perItem: false, apply: (doc) => doc, byHand: (doc) => `open box ${doc.id} and clear it` },
  refuse: { name: 'refuse', schema: {}, perItem: false, apply: (doc) => doc, request: () => ({ operation: 'x', method: 'POST', path: '/x', body: null }), refusal: () => 'it is locked' },
  needs: { name: 'needs', schema: {}, perItem: false, reads: ['extra'], apply: (doc) => doc, request: () => ({ operation: 'x', method: 'POST', path: '/x', body: null }) },
};

function boxKind(overrides: Partial<ResourceKind> = {}): ResourceKind {
  return {
    name: 'box',
    description: 'a test kind',
    live: false,
    inputs: { manifests: { key: 'boxes', description: 'box' } },
    operations: [],
    documentSchema: {},
    parts: {},
    collect: async function* () {},
    fixes: FIXES,
    write: (after) => ({ operation: 'putBox', method: 'PUT', path: `/box/${after.id}`, body: { flag: after.flag, items: after.items } }),
    widens: (before, after) => (itemsOf(after).length > itemsOf(before).length ? 'an item would be added' : null),
    ...overrides,
  };
}

/** The box's policies: no item grants ADMIN; the flag is off; a box keeps at least one item. */
const check: DocChecker = async (_r, doc) => {
  const out: DocViolation[] = itemsOf(doc).flatMap((it, i) => (it.grants.includes('ADMIN') ? [{ policy: 'no-admin', path: `items[${i}]` }] : []));
  if (doc.flag) out.push({ policy: 'flag-off', path: null });
  if (itemsOf(doc).length === 0) out.push({ policy: 'has-items', path: null });
  return out;
};

const box = (id: string, doc: Partial<ResourceDocument> = {}): CollectedResource => ({
  kind: 'box',
  id,
  name: null,
  doc: { id, flag: true, items: [{ id: 'a', grants: ['ADMIN', 'READ'] }, { id: 'b', grants: ['READ'] }, { id: 'c', grants: ['ADMIN'] }], ...doc },
  source: { file: `boxes/${id}.yaml`, location: { file: `boxes/${id}.yaml`, line: 1, column: 1 }, paths: {}, sha256: 'f'.repeat(64) },
});

const finding = (policy: string, id: string, path: string | null, extra: Partial<Finding> = {}) =>
  makeFinding({ policy, resource: { kind: 'box', id, name: null }, path, ...extra });

function plan(findings: Finding[], fixes: Record<string, Record<string, unknown>>, input: Partial<PlanInput> = {}) {
  return planFixes({
    findings,
    policies: Object.entries(fixes).map(([id, fix]) => ({ id, fix })),
    resources: [box('b1')],
    kinds: { box: boxKind() },
    check,
    now: new Date('2026-06-01T00:00:00Z'),
    ...input,
  });
}

const reasons = (p: Awaited<ReturnType<typeof plan>>) => p.notPlanned.map((n) => n.reason);

describe('what is not planned, and why', () => {
  it('a box without a manifest; an unknown kind; a kind with no such fix; an item fix on the whole box', async () => {
    const p = await plan(
      [finding('flag-off', 'b9', null), finding('flag-off', 'b1', null, { resource: { kind: 'crate', id: 'c1', name: null } }), finding('bogus', 'b1', null), finding('item-fix', 'b1', null)],
      { 'flag-off': { clear: true }, bogus: { paint: 'red' }, 'item-fix': { revoke: ['ADMIN'] } },
    );
    // Resources in kind and id order: box b1, box b9, crate c1.
    expect(reasons(p)).toEqual([
      'box has no fix "paint"',
      'fix "revoke" needs an item',
      'fixes of a box are planned on its manifest, and box b9 has none: add one under manifests.boxes in steward.yaml declaring its state as it should be, then run fix --write (or change it in the product)',
      'the resource was not collected in this run',
    ]);
    expect(p.notPlanned[2]).toMatchObject({ policies: ['flag-off'], resource: { kind: 'box', id: 'b9' }, manifest: null });
    expect(p.notPlanned[0]).toMatchObject({ policies: ['bogus'], manifest: { file: 'boxes/b1.yaml', sha256: 'f'.repeat(64) } });
    // Each names the finding it leaves unfixed.
    expect(p.notPlanned.map((n) => n.findings.length)).toEqual([1, 1, 1, 1]);
  });

  it('opt-in fixes only when allowed, with their warning either way', async () => {
    const f = finding('tags', 'b1', null);
    expect(reasons(await plan([f], { tags: { optin: ['x'] } }))).toEqual(['fix "optin" is opt-in: it replaces the list']);
    expect((await plan([f], { tags: { optin: ['x'] } })).notPlanned[0].findings).toEqual([f.fingerprint]);
    const quiet: FixKind = { ...FIXES.optin, name: 'quiet', warning: undefined };
    expect(reasons(await plan([f], { tags: { quiet: true } }, { kinds: { box: boxKind({ fixes: { ...FIXES, quiet } }) } }))).toEqual(['fix "quiet" is opt-in']);
    const allowed = await plan([f], { tags: { optin: ['x'] } }, { allowOptIn: true });
    expect(allowed.changes).toMatchObject([{ type: 'action', request: { path: '/box/b1/optin', body: ['x'] }, diff: ['optin: ["x"]'], warnings: ['it replaces the list'], fix: { name: 'optin', value: ['x'] } }]);
  });

  it('a kind that cannot be written; a checker that fails on the declared or on the fixed document', async () => {
    const f = finding('flag-off', 'b1', null);
    expect(reasons(await plan([f], { 'flag-off': { clear: true } }, { kinds: { box: boxKind({ write: undefined }) } }))).toEqual(['box resources cannot be written']);
    const failing: DocChecker = async () => {
      throw new Error('boom');
    };
    expect(reasons(await plan([f], { 'flag-off': { clear: true } }, { check: failing }))).toEqual(['could not re-evaluate the declared document: boom']);
    let calls = 0;
    const failsSecond: DocChecker = async (r, doc) => {
      calls += 1;
      if (calls > 1) throw new Error('bang');
      return check(r, doc);
    };
    expect(reasons(await plan([f], { 'flag-off': { clear: true } }, { check: failsSecond }))).toEqual(['could not re-evaluate the fixed document: bang']);
  });

  it('a fix that would widen access, break another policy, or change nothing', async () => {
    const widen = await plan([finding('grow', 'b1', null)], { grow: { widen: true } });
    expect(reasons(widen)).toEqual(['refused: the fix would widen access (an item would be added)']);
    // Dropping the only item leaves the box empty: has-items breaks, which the declared box does not.
    const single = box('b1', { items: [{ id: 'a', grants: ['ADMIN'] }] });
    const breaks = await plan([finding('no-admin', 'b1', 'items[0]')], { 'no-admin': { drop: true } }, { resources: [single] });
    expect(reasons(breaks)).toEqual(['the fixed box would break has-items, which the declared state does not']);
    // Revoking READ from b (no ADMIN there) while a's ADMIN stays: a revoke that adds ADMIN breaks no-admin at that item.
    const grant: FixKind = { name: 'grant', schema: {}, perItem: true, apply: (doc, _v, path) => ({ ...doc, items: itemsOf(doc).map((it, i) => (i === indexOf(path) ? { ...it, grants: ['ADMIN'] } : it)) }) };
    const broke = await plan([finding('p', 'b1', 'items[1]')], { p: { grant: true } }, { kinds: { box: boxKind({ fixes: { ...FIXES, grant } }) } });
    expect(reasons(broke)).toEqual(['the fixed box would break no-admin at items[1] b, which the declared state does not']);
    const nothing = await plan([finding('same', 'b1', null)], { same: { noop: true } });
    expect(reasons(nothing)).toEqual(['the fix changes nothing in the declared state']);
    expect(nothing.changes).toEqual([]);
  });

  it('action fixes: by hand, refused, or needing a read the plan cannot make', async () => {
    const p = await plan([finding('h', 'b1', null), finding('r', 'b1', null), finding('n', 'b1', null)], { h: { hand: true }, r: { refuse: true }, n: { needs: true } });
    expect(p.notPlanned.map((n) => n.findings.length)).toEqual([1, 1, 1]);
    expect(reasons(p)).toEqual([
      'fix "hand" by hand: open box b1 and clear it',
      'fix "refuse" not planned: it is locked',
      'fix "needs" could not be planned: it needs the current extra, and this plan has no API to read them',
    ]);
    expect(p.changes).toEqual([]);
    // A document that already holds the read needs no API: planned.
    const held = await plan([finding('n', 'b1', null)], { n: { needs: true } }, { resources: [box('b1', { extra: ['x'] })] });
    expect([reasons(held), held.changes.map((c) => c.request?.path)]).toEqual([[], ['/x']]);
  });
});

describe('which declared resource a finding is planned on', () => {
  it('its own kind\'s, when another kind declares the same id (card 7001 and page 7001): the manifest and the request are its own', async () => {
    const crate = (id: string): CollectedResource => ({ ...box(id, { flag: false }), kind: 'crate', source: { file: `crates/${id}.yaml`, location: { file: `crates/${id}.yaml`, line: 1, column: 1 }, paths: {}, sha256: 'c'.repeat(64) } });
    const crateKind = boxKind({ name: 'crate', write: (after) => ({ operation: 'putCrate', method: 'PUT', path: `/crate/${after.id}`, body: {} }) });
    // The crate is listed first: an id-only match would plan the box's fix on the crate's manifest.
    const p = await plan([finding('flag-off', 'b1', null)], { 'flag-off': { clear: true } }, { resources: [crate('b1'), box('b1')], kinds: { box: boxKind(), crate: crateKind } });
    expect(p.changes).toMatchObject([{ resource: { kind: 'box', id: 'b1' }, manifest: { file: 'boxes/b1.yaml' }, request: { path: '/box/b1' } }]);
  });
});

describe('what is planned', () => {
  it('violations of policies without a fix are counted; waived findings and errors are neither fixed nor counted', async () => {
    const p = await plan(
      [finding('flag-off', 'b1', null), finding('flag-off', 'b0', null), finding('unfixable', 'b1', null), finding('unfixable', 'b1', null, { status: 'waived' }), finding('unfixable', 'b1', null, { status: 'error' }), finding('flag-off', 'b1', null, { status: 'waived' })],
      { 'flag-off': { clear: true } },
      // A selected policy without a fix is not planned (and breaks nothing).
      { policies: [{ id: 'flag-off', fix: { clear: true } }, { id: 'unfixable' }], resources: [box('b0'), box('b1')] },
    );
    expect(p.withoutFix).toBe(1);
    expect(p.changes.map((c) => [c.resource.id, (c.before as { id: string }).id])).toEqual([['b0', 'b0'], ['b1', 'b1']]);
    expect(p.changes.map((c) => c.findings.length)).toEqual([1, 1]);
  });

  it('item fixes apply from the highest index down (two-digit ones too), whole-box fixes first: one request with every kept fix', async () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ id: `i${i}`, grants: i === 2 || i === 10 ? ['ADMIN'] : ['READ'] }));
    const p = await plan([finding('no-admin', 'b1', 'items[2]'), finding('flag-off', 'b1', null), finding('no-admin', 'b1', 'items[10]')], { 'no-admin': { drop: true }, 'flag-off': { clear: true } }, {
      resources: [box('b1', { items })],
    });
    expect(p.notPlanned).toEqual([]);
    expect(p.changes).toHaveLength(1);
    const after = p.changes[0].after as unknown as { flag: boolean; items: Item[] };
    expect(after.flag).toBe(false);
    expect(after.items.map((it) => it.id)).toEqual(['i0', 'i1', 'i3', 'i4', 'i5', 'i6', 'i7', 'i8', 'i9', 'i11']);
    expect(p.changes[0].request).toEqual({ operation: 'putBox', method: 'PUT', path: '/box/b1', body: { flag: false, items: after.items } });
    expect(p.changes[0].warnings).toEqual(['clearing is final']);
    // In the order the fixes were kept: the whole box first.
    expect(p.changes[0].policies).toEqual(['flag-off', 'no-admin']);
  });

  it('a second fix of an item already removed is kept without changing anything more', async () => {
    const drop = finding('no-admin', 'b1', 'items[0]');
    const revoke = finding('empty-grants', 'b1', 'items[0]');
    const p = await plan([drop, revoke], { 'no-admin': { drop: true }, 'empty-grants': { revoke: ['READ'] } });
    expect(p.notPlanned).toEqual([]);
    expect(p.changes).toHaveLength(1);
    // The revoke is not applied to b, which now stands at items[0].
    expect((p.changes[0].after as unknown as { items: Item[] }).items).toEqual([
      { id: 'b', grants: ['READ'] },
      { id: 'c', grants: ['ADMIN'] },
    ]);
    expect(p.changes[0].findings).toEqual([drop.fingerprint, revoke.fingerprint]);
  });

  it('two fixes of one item that keep it both apply', async () => {
    const p = await plan([finding('no-admin', 'b1', 'items[0]'), finding('no-read', 'b1', 'items[0]')], { 'no-admin': { revoke: ['ADMIN'] }, 'no-read': { revoke: ['READ'] } });
    expect((p.changes[0].after as unknown as { items: Item[] }).items[0]).toEqual({ id: 'a', grants: [] });
  });

  it('a kept fix that leaves its finding violated says so', async () => {
    // Revoking READ from item a leaves its ADMIN: no-admin at items[0] still fails.
    const p = await plan([finding('no-admin', 'b1', 'items[0]')], { 'no-admin': { revoke: ['READ'] } });
    expect(p.changes).toHaveLength(1);
    expect(p.changes[0].warnings).toEqual(['the fix does not resolve no-admin at items[0]']);
  });

  it('action fixes with the same request are one change naming every policy and finding; a live box not collected still gets its action', async () => {
    const a = finding('p1', 'b1', null);
    const b = finding('p2', 'b1', null);
    const c = finding('p1', 'b1', null);
    const p = await plan([a, b, c], { p1: { act: true }, p2: { act: true } });
    expect(p.changes).toMatchObject([{ type: 'action', policies: ['p1', 'p2'], findings: [a.fingerprint, b.fingerprint, c.fingerprint], diff: ['act: true'], warnings: [] }]);
    const live = await plan([finding('p1', 'b7', null)], { p1: { act: true } }, { kinds: { box: boxKind({ live: true, inputs: {} }) } });
    expect(live.changes).toMatchObject([{ request: { path: '/box/b7/act' }, before: { id: 'b7' }, manifest: null }]);
    // A state fix of a live box that was not collected has no document to change.
    const state = await plan([finding('flag-off', 'b7', null)], { 'flag-off': { clear: true } }, { kinds: { box: boxKind({ live: true, inputs: {} }) } });
    expect(reasons(state)).toEqual(['the resource was not collected in this run']);
  });

  it('findingsWithFixes: a planned change, or why none, on each finding; others keep fix null', async () => {
    const fixed = finding('flag-off', 'b1', null);
    const refused = finding('h', 'b1', null);
    const other = finding('unfixable', 'b1', null);
    const p = await plan([fixed, refused, other], { 'flag-off': { clear: true }, h: { hand: true } });
    const out = findingsWithFixes([fixed, refused, other], p);
    expect(out.map((f) => f.fix)).toEqual([
      { planned: true, change: 1, method: 'PUT', path: '/box/b1', body: p.changes[0].request.body },
      { planned: false, reason: 'fix "hand" by hand: open box b1 and clear it' },
      null,
    ]);
  });
});
