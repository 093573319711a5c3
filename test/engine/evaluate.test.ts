// Pure evaluation of compiled policies on queue and data-file documents: which items are
// selected (path, key), which fail with what message and offending value, and that a CEL
// error becomes an error outcome instead of a pass.
import { describe, expect, it } from 'vitest';
import { evaluateDocument, judgeItems, selectItems } from '../../src/engine/evaluate.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { loadPolicies } from '../../src/policy/loader.js';
import type { PolicyDefinition } from '../../src/policy/types.js';
import { KINDS } from '../fixtures/kinds.js';

const now = new Date('2025-06-01T00:00:00Z');
const pack = await loadPolicies(['builtin'], { kinds: KINDS });
const compiled = (id: string) => compilePolicy(pack.find((p) => p.id === id)!);

const SUPPORT = {
  id: 'q-support-escalations',
  permissions: [
    { id: 'g-21', name: 'Support Leads', type: 'GROUP', permissions: ['ADMIN', 'READ'] },
    { id: '12', name: 'Chen Wei', type: 'USER', permissions: ['ADMIN', 'READ', 'WRITE'] },
    { id: '15', name: 'On-call Break Glass', type: 'USER', permissions: ['ADMIN'] },
    { id: '16', name: 'Reader', type: 'USER', permissions: ['READ'] },
  ],
};

describe('selectItems', () => {
  it('each + when selects the matching items with their path and key', () => {
    const sel = selectItems(compiled('queue-no-admin-for-users'), SUPPORT, { now });
    expect(sel).toEqual([
      { path: 'permissions[1]', itemKey: '12', item: SUPPORT.permissions[1] },
      { path: 'permissions[2]', itemKey: '15', item: SUPPORT.permissions[2] },
      { path: 'permissions[3]', itemKey: '16', item: SUPPORT.permissions[3] },
    ]);
  });

  it('item keys fall back to entityId, then to the index', () => {
    const policy = compiled('data-files-no-admin-grant');
    const doc = { id: 43, entries: [{ entityId: '7', grant: 'READ' }, { grant: 'READ' }] };
    expect(selectItems(policy, doc, { now }).map((s) => [s.path, s.itemKey])).toEqual([
      ['entries[0]', '7'],
      ['entries[1]', '1'],
    ]);
  });

  it('without each: the resource itself when `when` holds, nothing otherwise', () => {
    const policy = compiled('enabled-schedules-have-recipients');
    expect(selectItems(policy, { id: 1, schedule: { enabled: true } }, { now })).toEqual([{ path: null, itemKey: null }]);
    expect(selectItems(policy, { id: 1, schedule: { enabled: false } }, { now })).toEqual([]);
  });
});

describe('judgeItems', () => {
  it('user ADMIN entries fail with the rendered message and the item as offending value', () => {
    const policy = compiled('queue-no-admin-for-users');
    const out = judgeItems(policy, SUPPORT, selectItems(policy, SUPPORT, { now }), { now });
    expect(out).toEqual([
      {
        path: 'permissions[1]',
        itemKey: '12',
        passed: false,
        message: 'User Chen Wei (12) holds ADMIN on queue q-support-escalations',
        offendingValue: SUPPORT.permissions[1],
      },
      {
        path: 'permissions[2]',
        itemKey: '15',
        passed: false,
        message: 'User On-call Break Glass (15) holds ADMIN on queue q-support-escalations',
        offendingValue: SUPPORT.permissions[2],
      },
      { path: 'permissions[3]', itemKey: '16', passed: true, offendingValue: SUPPORT.permissions[3] },
    ]);
  });

  it('a whole-resource policy offends with the fields it reads; params come from env or the policy', () => {
    const policy = compiled('calculated-fields-valid');
    const doc = { id: 'instance', total: 10, invalid: 3, invalidLink: 0 };
    expect(evaluateDocument(policy, doc, { now })).toEqual([
      {
        path: null,
        itemKey: null,
        passed: false,
        message: '3 calculated field(s) are invalid (at most 0 allowed)',
        offendingValue: { invalid: 3 },
      },
    ]);
    expect(evaluateDocument(policy, doc, { now, params: { maxInvalid: 3 } })[0].passed).toBe(true);
  });

  it('a CEL error in one item is an error outcome for that item; the others are judged', () => {
    const policy = compiled('queue-entries-grant-something');
    const doc = {
      id: 'q',
      permissions: [{ id: '1', name: 'A', type: 'USER', permissions: [] }, { id: '2', type: 'USER' }, { id: '3', permissions: ['READ'] }],
    };
    const out = evaluateDocument(policy, doc, { now });
    expect(out.map((o) => [o.itemKey, o.passed, o.error ?? null])).toEqual([
      ['1', false, null],
      ['2', false, 'policy queue-entries-grant-something: assert: field not found: permissions'],
      ['3', true, null],
    ]);
  });

  it('errors in each and when, and a non-bool assert, are errors; a failing message keeps the violation', () => {
    const def: PolicyDefinition = { ...pack.find((p) => p.id === 'queue-no-admin-for-users')! };
    const policy = compilePolicy(def);
    expect(evaluateDocument(policy, { id: 'q' }, { now })).toEqual([
      { path: null, itemKey: null, passed: false, offendingValue: { id: 'q' }, error: 'policy queue-no-admin-for-users: each: field not found: permissions' },
    ]);
    const noType = evaluateDocument(policy, { id: 'q', permissions: [{ id: '1', permissions: ['ADMIN'] }] }, { now });
    expect(noType[0].error).toBe('policy queue-no-admin-for-users: when: field not found: type');
    const notList = evaluateDocument(policy, { id: 'q', permissions: 'ADMIN' }, { now });
    expect(notList[0].error).toBe('policy queue-no-admin-for-users: each: must evaluate to a list, got string');

    const msg = compilePolicy({ ...def, message: 'User {{ item.nickname }}' });
    const [o] = evaluateDocument(msg, { id: 'q', permissions: [{ id: '7', type: 'USER', permissions: ['ADMIN'] }] }, { now });
    expect(o).toEqual({
      path: 'permissions[0]',
      itemKey: '7',
      passed: false,
      message: 'Queues grant ADMIN only through groups (policy queue-no-admin-for-users: message: field not found: nickname)',
      // kept apart too, so `steward test` can fail on it
      messageError: 'policy queue-no-admin-for-users: message: field not found: nickname',
      offendingValue: { id: '7', type: 'USER', permissions: ['ADMIN'] },
    });

    const dyn = compilePolicy({ ...def, each: undefined, when: undefined, fix: undefined, assert: 'resource.flag', message: 'm' });
    expect(evaluateDocument(dyn, { id: 'q', flag: 'yes' }, { now })[0].error).toBe(
      'policy queue-no-admin-for-users: assert: assert must evaluate to a bool, got string',
    );
  });
});

describe('what an outcome names', () => {
  const base: PolicyDefinition = { ...pack.find((p) => p.id === 'queue-no-admin-for-users')!, fix: undefined };
  const policy = (over: Partial<PolicyDefinition>) => compilePolicy({ ...base, ...over });

  it('`when` without `each`: its error and a value that is not a bool, each naming the field', () => {
    const p = policy({ each: undefined, when: 'resource.missing', assert: 'true', message: 'm' });
    expect(selectItems(p, { id: 'q' }, { now })).toEqual([{ path: null, itemKey: null, error: 'policy queue-no-admin-for-users: when: field not found: missing' }]);
    const notBool = policy({ each: undefined, when: 'resource.count', assert: 'true', message: 'm' });
    expect(evaluateDocument(notBool, { id: 'q', count: 2 }, { now })).toEqual([
      { path: null, itemKey: null, passed: false, offendingValue: {}, error: 'policy queue-no-admin-for-users: when: when must evaluate to a bool, got number' },
    ]);
  });

  it("an item's `when` that is not a bool is that item's error", () => {
    const p = policy({ when: 'item.type' });
    expect(selectItems(p, { id: 'q', permissions: [{ id: '1', type: 'USER' }] }, { now })).toEqual([
      { path: 'permissions[0]', itemKey: '1', item: { id: '1', type: 'USER' }, error: 'policy queue-no-admin-for-users: when: when must evaluate to a bool, got string' },
    ]);
  });

  it('a value of the wrong type is named: null, list, map', () => {
    const p = policy({ each: undefined, when: undefined, assert: 'resource.flag', message: 'm' });
    const errorOf = (flag: unknown) => evaluateDocument(p, { id: 'q', flag }, { now })[0].error;
    expect([errorOf(null), errorOf([true]), errorOf({ a: true })]).toEqual([
      'policy queue-no-admin-for-users: assert: assert must evaluate to a bool, got null',
      'policy queue-no-admin-for-users: assert: assert must evaluate to a bool, got list',
      'policy queue-no-admin-for-users: assert: assert must evaluate to a bool, got map',
    ]);
    const each = policy({ each: 'resource.permissions', when: undefined });
    expect(evaluateDocument(each, { id: 'q', permissions: { a: 1 } }, { now })[0].error).toBe('policy queue-no-admin-for-users: each: must evaluate to a list, got map');
  });

  it("items: a number id is the key, a null item or one without an id its index; an `each` that is not a field's path is `each[i]`", () => {
    const p = policy({ each: 'resource.permissions.filter(x, true)', when: undefined, assert: 'true' });
    expect(selectItems(p, { id: 'q', permissions: [{ id: 7 }, null, 'text', { id: true }] }, { now }).map((s) => [s.path, s.itemKey])).toEqual([
      ['each[0]', '7'],
      ['each[1]', '1'],
      ['each[2]', '2'],
      ['each[3]', '3'],
    ]);
  });

  it('the offending value of a whole-resource verdict: the fields the judgement reads that the resource has, or all of it', () => {
    const fields = policy({ each: undefined, when: undefined, assert: 'has(resource.absent) || resource.flag', message: 'm' });
    const [o] = evaluateDocument(fields, { id: 'q', flag: false, other: 1 }, { now });
    expect(o.passed).toBe(false);
    // Only fields present: a field the resource lacks is not a key (undefined would still hash).
    expect(o.offendingValue).toStrictEqual({ flag: false });
    const whole = policy({ each: undefined, when: undefined, assert: 'size(resource) > 5', message: 'm' });
    const doc = { id: 'q', flag: false };
    expect(evaluateDocument(whole, doc, { now })[0].offendingValue).toBe(doc);
  });
});
