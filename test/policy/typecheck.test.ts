// Static typing at load: type mistakes that would silently give a wrong answer (or fail on
// every resource) are file:line:column problems, typed from literals, operators, the kind's
// document schema and the parameters' defaults; unknown types pass.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { checkPolicyText, loadCompiledPolicies } from '../../src/policy/policy-set.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { BUILTIN_POLICIES } from '../cli/helpers.js';
import { MISSION_POLICIES } from '../engine/mission-policies.js';

/** A one-policy file; `assert:` stands on line 6 with its value at column 13. */
function policy(resource: string, fields: Record<string, string>): string {
  const { assert = '"true"', ...rest } = fields;
  const more = Object.entries(rest).map(([k, v]) => `    ${k}: ${v}\n`).join('');
  return `policies:\n  - id: p\n    title: T\n    severity: low\n    resource: ${resource}\n    assert: ${assert}\n${more}`;
}

const problems = (resource: string, fields: Record<string, string>) =>
  checkPolicyText(policy(resource, fields), 'p.yaml', { kinds: RESOURCE_KINDS }).map((p) => `${p.line}:${p.column}: ${p.message}`);

describe('messages never print null', () => {
  it('a field that may be null rendered bare is a problem at its position; a guard or label() is not', () => {
    expect(problems('workflow', { message: '"Workflow {{ resource.name }} has no owner"' })).toEqual([
      "7:27: type error: may be null, and a message would print 'null': write label(name, id), or x != null ? x : '…'",
    ]);
    expect(problems('workflow', { message: `"Workflow {{ resource.name != null ? resource.name : 'unnamed' }}"` })).toEqual([]);
    expect(problems('workflow', { message: '"Workflow {{ label(resource.name, resource.id) }}"' })).toEqual([]);
    // A guard on another field proves nothing about this one.
    expect(problems('workflow', { message: `"{{ resource.description != null ? resource.name : '' }}"` })).toHaveLength(1);
  });
});

describe('type errors found at load', () => {
  it('comparing a schema-typed field with a literal of another type', () => {
    expect(problems('reportSchedule', { assert: `resource.recipientCount != "0"` })).toEqual([
      "6:13: type error: cannot compare int or null with string using '!='",
    ]);
    expect(problems('reportSchedule', { assert: "resource.misconfiguration.id == 'x'" })).toEqual([
      "6:13: type error: cannot compare int with string using '=='",
    ]);
    // inside a macro, the comprehension variable is typed by the list's items
    expect(problems('dataset', { assert: "resource.access.list.exists(e, e.type == 'GROUP' && e.accessLevel == 1)" })).toEqual([
      "6:65: type error: cannot compare string with int using '=='",
    ]);
    // `item` is typed by the element type of `each`
    expect(problems('queue', { each: 'resource.permissions', assert: 'item.permissions == "ADMIN"' })).toEqual([
      "6:13: type error: cannot compare list with string using '=='",
    ]);
  });

  it('literal mistakes: arithmetic, ordering, size, in', () => {
    expect(problems('workflow', { assert: `1 + "a" == 2` })).toEqual(["6:13: type error: no '+' for int and string"]);
    expect(problems('workflow', { assert: `"'a' < 1"` })).toEqual(["6:14: type error: cannot compare string with int using '<'"]);
    expect(problems('workflow', { assert: 'size(1) > 0' })).toEqual(['6:13: type error: size() of int (needs a string, bytes, list or map)']);
    expect(problems('workflow', { assert: `"'a' in 'abc'"` })).toEqual(["6:14: type error: 'in' needs a list or map on its right, got string"]);
    // the sub-expression's own column, not the whole expression's
    expect(problems('reportSchedule', { assert: `"resource.id > 0 && size(resource.title) + 'a' == 1"` })).toEqual([
      "6:33: type error: no '+' for int and string",
    ]);
  });

  it('assert/when must be bool, each a list, when their type is known', () => {
    expect(problems('reportSchedule', { assert: 'resource.title' })).toEqual([
      '6:13: type error: must be a bool expression, this one yields string or null',
    ]);
    expect(problems('reportSchedule', { when: 'resource.recipientCount' })).toEqual([
      '7:11: type error: must be a bool expression, this one yields a number or null',
    ]);
    expect(problems('reportSchedule', { each: 'resource.title' })).toEqual([
      '7:11: type error: must be a list expression, this one yields string or null',
    ]);
  });

  it('constant regexes, timestamps and durations that can never work', () => {
    expect(problems('workflow', { assert: `"resource.id.matches('[')"` })).toEqual([
      '6:34: invalid regular expression "[": error parsing regexp: missing closing ]: `[`',
    ]);
    expect(problems('workflow', { assert: `"now > timestamp('nope')"` })).toEqual([
      `6:30: invalid timestamp "nope" (expected RFC 3339, e.g. '2025-01-31T00:00:00Z')`,
    ]);
    expect(problems('workflow', { assert: `"now - duration('1 day') < now"` })).toEqual([
      `6:29: invalid duration "1 day" (expected e.g. '90s', '1h30m')`,
    ]);
    expect(problems('workflow', { assert: `"resource.id.matches('^[a-z]+$') && now > timestamp('2025-01-01T00:00:00Z') - duration('1h30m')"` })).toEqual([]);
  });

  it('a word a closed vocabulary never holds: every comparison with it is decided before any read', () => {
    // The platform's word, where the document holds steward's (PLATFORM.md §7: CERTIFIED reads ACTIVE).
    expect(problems('dataset', { assert: "resource.certification.state == 'CERTIFIED'" })).toEqual([
      "6:45: type error: 'CERTIFIED' is none of the values this field takes (ACTIVE, EXPIRED, PENDING, REQUESTED, null), so '==' is never true",
    ]);
    // A case slip, with the word meant; on either side; `!=` always holds.
    expect(problems('user', { when: `"'Active' == resource.state"` })).toEqual([
      "7:12: type error: 'Active' is none of the values this field takes (active, pending, deactivated, deleted) (did you mean 'active'?), so '==' is never true",
    ]);
    expect(problems('accessToken', { assert: "resource.owner.state != 'disabled'" })).toEqual([
      "6:37: type error: 'disabled' is none of the values this field takes (active, pending, deactivated, deleted, unknown, null), so '!=' is always true",
    ]);
    // In a comprehension (the items' schema), in a list literal, and a word looked for in a list of them.
    expect(problems('account', { assert: `"!resource.shares.exists(s, s.accessLevel == 'READ')"` })).toEqual([
      "6:58: type error: 'READ' is none of the values this field takes (CAN_VIEW, CAN_EDIT, CAN_SHARE, OWNER), so '==' is never true",
    ]);
    expect(problems('role', { assert: "resource.holders.all(h, h.state in ['active', 'pendng'])" })).toEqual([
      "6:59: type error: 'pendng' is none of the values this field takes (active, pending, deactivated, deleted, unknown) (did you mean 'pending'?), so it never matches",
    ]);
    expect(problems('queue', { each: 'resource.permissions', assert: `"!('OWNER' in item.permissions)"` })).toEqual([
      "6:16: type error: 'OWNER' is none of the values this field takes (ADMIN, SHARE, DELETE, WRITE, READ, CREATE_CONTENT, READ_CONTENT, UPDATE_CONTENT, DELETE_CONTENT, EXPORT, EXECUTE), so 'in' is never true",
    ]);
    // The sharing documents' vocabularies: a principal's type, a drift item's, where PDP's state came from.
    expect(problems('account', { assert: `"!resource.shares.exists(s, s.type == 'USERS')"` })).toEqual([
      "6:51: type error: 'USERS' is none of the values this field takes (USER, GROUP) (did you mean 'USER'?), so '==' is never true",
    ]);
    expect(problems('page', { assert: `"resource.drift.all(d, d.type != 'ROLE')"` })).toEqual([
      "6:46: type error: 'ROLE' is none of the values this field takes (USER, GROUP), so '!=' is always true",
    ]);
    expect(problems('dataset', { assert: "resource.pdp.enabledFrom == 'manifest'" })).toEqual([
      "6:41: type error: 'manifest' is none of the values this field takes (listing, policies), so '==' is never true",
    ]);
    // Its own words, null, a field of no closed vocabulary and a word from elsewhere compile.
    expect(problems('dataset', { assert: "resource.certification.state == 'ACTIVE' || resource.certification.state == null" })).toEqual([]);
    expect(problems('role', { assert: "resource.holders.all(h, h.state in ['active', 'pending'])" })).toEqual([]);
    expect(problems('group', { assert: "resource.type != 'anything'" })).toEqual([]);
    expect(problems('user', { assert: "resource.state in params.states", params: '{ states: [active] }' })).toEqual([]);
  });

  it("a parameter compared with a closed vocabulary: its default's words are held to it", () => {
    expect(problems('card', { assert: 'resource.certification.state in params.currentStates', params: '{ currentStates: [ACTIVE, CERTIFIED] }' })).toEqual([
      "6:45: type error: params.currentStates holds 'CERTIFIED', none of the values this field takes (ACTIVE, EXPIRED, PENDING, REQUESTED, null), so it never matches",
    ]);
    expect(problems('user', { assert: 'resource.state != params.gone', params: '{ gone: Deleted }' })).toEqual([
      "6:31: type error: params.gone holds 'Deleted', none of the values this field takes (active, pending, deactivated, deleted) (did you mean 'deleted'?), so '!=' is always true",
    ]);
    // Only `params.x` is a parameter: a field of the same name elsewhere is not.
    expect(problems('user', { assert: 'resource.state != resource.name', params: '{ name: Deleted }' })).toEqual([]);
  });

  it("the people kinds' documents and the owner part are typed: each field's kind, its closed words, its null", () => {
    const cases: [string, Record<string, string>, string][] = [
      ['dataset', { assert: '"resource.owner.id == 7"' }, "6:14: type error: cannot compare string with int using '=='"],
      ['dataset', { assert: `"resource.owner.type == 'USR'"` }, "6:37: type error: 'USR' is none of the values this field takes (USER, GROUP) (did you mean 'USER'?), so '==' is never true"],
      ['role', { assert: `"resource.system == 'true'"` }, "6:14: type error: cannot compare bool with string using '=='"],
      ['role', { assert: '"resource.grants.exists(g, g == 1)"' }, "6:40: type error: cannot compare string with int using '=='"],
      ['role', { assert: '"resource.holders.exists(h, h.id == 1)"' }, "6:41: type error: cannot compare string with int using '=='"],
      ['group', { assert: `"resource.members.exists(m, m.roleId == 'Admin')"` }, "6:41: type error: cannot compare int or null with string using '=='"],
      ['user', { assert: `"resource.role.system == 'yes'"` }, "6:14: type error: cannot compare bool with string using '=='"],
      ['user', { assert: `"resource.lastLogin == 'never'"` }, "6:14: type error: cannot compare int or null with string using '=='"],
      ['account', { assert: '"resource.credentialsType == 1"' }, "6:14: type error: cannot compare string or null with int using '=='"],
      ['accessToken', { assert: `"resource.expires == 'soon'"` }, "6:14: type error: cannot compare int with string using '=='"],
    ];
    const nullable = "7:18: type error: may be null, and a message would print 'null': write label(name, id), or x != null ? x : '…'";
    for (const [kind, field] of [['dataset', 'owner.name'], ['dataset', 'owner.email'], ['user', 'lastLogin'], ['group', 'type'], ['group', 'created'], ['account', 'credentialsType']]) {
      cases.push([kind!, { message: `"{{ resource.${field} }}"` }, nullable]);
    }
    for (const [kind, fields, problem] of cases) expect(problems(kind, fields), `${kind} ${JSON.stringify(fields)}`).toEqual([problem]);
  });

  it('parameters have the type of their default', () => {
    expect(problems('calculatedFields', { assert: 'resource.invalid <= params.maxInvalid', params: '{ maxInvalid: 0 }' })).toEqual([]);
    expect(problems('calculatedFields', { assert: 'resource.invalid <= params.label', params: '{ label: x }' })).toEqual([
      "6:13: type error: cannot compare int with string using '<='",
    ]);
  });

  it('a message template is checked too', () => {
    expect(problems('reportSchedule', { message: `"{{ resource.cardCount + '!' }}"` })).toEqual([
      "7:18: type error: no '+' for int or null and string",
    ]);
  });

  it('loading fails with an InputError (exit 2) naming file:line:column', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-types-'));
    writeFileSync(path.join(dir, 'p.yaml'), policy('reportSchedule', { assert: `resource.recipientCount != "0"` }));
    const err = await loadCompiledPolicies(['p.yaml'], { kinds: RESOURCE_KINDS, cwd: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe("p.yaml:6:13: type error: cannot compare int or null with string using '!='");
  });
});

describe('unknown fields and functions', () => {
  it('a field a closed document does not have, with the closest name', () => {
    expect(problems('dataset', { assert: 'has(resource.certifcation)' })).toEqual([
      "6:26: unknown field 'certifcation' of dataset (did you mean 'certification'?)",
    ]);
    expect(problems('dataFile', { assert: "resource['publicAcess'] == false" })).toEqual([
      "6:23: unknown field 'publicAcess' of dataFile (did you mean 'publicAccess'?)",
    ]);
    expect(problems('card', { assert: 'resource.ownerId == 1' })).toEqual([
      "6:22: unknown field 'ownerId' of card (did you mean 'owner'?)",
    ]);
    expect(problems('queue', { message: '"{{ resource.permisions }}"' })).toEqual([
      "7:27: unknown field 'permisions' of queue (did you mean 'permissions'?)",
    ]);
  });

  it('open documents (carrying what the API adds) accept any field', () => {
    for (const kind of ['reportSchedule', 'workflow', 'filesetFile', 'calculatedFields']) {
      expect(problems(kind, { assert: 'has(resource.addedByTheApi)' }), kind).toEqual([]);
    }
  });

  it('open documents: a field close to one the kind declares is a warning at its place, the policy loaded', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-types-'));
    const message = (field: string, near: string, kind = 'reportSchedule') =>
      `'${field}' is not a field ${kind} declares (did you mean '${near}'?): every resource without it fails this expression, and has() of it is false`;
    writeFileSync(
      path.join(dir, 'p.yaml'),
      [
        policy('reportSchedule', { assert: 'resource.recipientCont > 0', message: '"{{ resource.Title }}"' }),
        policy('workflow', { assert: 'has(resource.addedByTheApi) || has(resource.ownr)' }).replace('policies:\n', '').replace('id: p', 'id: q'),
      ].join(''),
    );
    const [schedules, workflows] = await loadCompiledPolicies(['p.yaml'], { kinds: RESOURCE_KINDS, cwd: dir });
    expect(schedules!.warnings).toEqual([
      { file: 'p.yaml', line: 6, column: 22, message: message('recipientCont', 'recipientCount') },
      { file: 'p.yaml', line: 7, column: 27, message: message('Title', 'title') },
    ]);
    expect(workflows!.warnings).toEqual([{ file: 'p.yaml', line: 12, column: 57, message: message('ownr', 'owner', 'workflow') }]);
    // Not a problem: checkPolicyText (an editor's check) and loading see none.
    expect(problems('reportSchedule', { assert: 'resource.recipientCont > 0' })).toEqual([]);
  });

  it('a misspelt function names the one meant', () => {
    expect(problems('reportSchedule', { assert: 'isTimezone(resource.schedule.timezone)' })).toEqual([
      "6:13: unknown function 'isTimezone' (did you mean 'isTimeZone'?)",
    ]);
  });
});

describe('no false positives', () => {
  it('realistic policies over every kind validate', () => {
    const ok: [string, Record<string, string>][] = [
      ['reportSchedule', { when: 'resource.schedule.enabled', assert: 'resource.recipientCount > 0' }],
      ['reportSchedule', { assert: '"!resource.misconfigured || resource.misconfiguration == null"' }],
      ['reportSchedule', { assert: '"resource.cardCount * 2.5 < 10.0 && resource.title.startsWith(\'W\')"' }],
      ['dataset', { assert: '"resource.certification.state == \'ACTIVE\' || resource.certification.state == null"' }],
      ['dataset', { assert: '"size(resource.access.list.filter(e, e.type == \'USER\')) <= 3"' }],
      ['card', { assert: '"resource.schedules.all(s, s > 0) && (resource.id == 3 || resource.id == \'x\')"' }],
      ['queue', { each: 'resource.permissions', when: "item.type == 'USER'", assert: `"!('ADMIN' in item.permissions)"` }],
      ['dataFile', { each: 'resource.entries', assert: "\"item.grant != 'ADMIN' && !resource.publicAccess\"" }],
      ['filesetFile', { assert: '"resource.hashAlgorithm == \'SHA_256_HEX\' && timestamp(resource.created) < now"' }],
      ['workflow', { assert: '"has(resource.name) && resource.name != null && resource.name != \'\'"' }],
      ['workflow', { assert: '"dyn(resource.id) == 1 || type(resource.id) == string"' }],
    ];
    for (const [kind, fields] of ok) expect(problems(kind, fields), JSON.stringify(fields)).toEqual([]);
  });

  it('the built-in pack and the mission policies validate against the real kinds', async () => {
    await expect(loadCompiledPolicies(['builtin'], { kinds: RESOURCE_KINDS })).resolves.toHaveLength(BUILTIN_POLICIES);
    expect(checkPolicyText(MISSION_POLICIES, 'm.yaml', { kinds: RESOURCE_KINDS })).toEqual([]);
  });
});
