// How API drift is said: the first mismatch of an answer against its schema, at its field.
import { describe, expect, it } from 'vitest';
import { checkResponse, formatField } from '../../src/api/drift.js';
import { queuePermissionsReadSchema, workflowPermissionsSchema } from '../../src/api/schemas.js';

const schedule = {
  type: 'object',
  required: ['id', 'schedule'],
  properties: {
    id: { type: 'integer' },
    state: { type: 'string', enum: ['ACTIVE', 'PAUSED'] },
    schedule: { type: 'object', required: ['timezone'], properties: { timezone: { type: 'string' } } },
    'odd key': { type: 'array', items: { type: 'integer' } },
  },
};
const list = { type: 'array', items: schedule };

describe('checkResponse', () => {
  it('passes an answer that matches, extra fields and all', () => {
    expect(checkResponse(list, [{ id: 1, schedule: { timezone: 'UTC' }, extra: true }])).toBeUndefined();
  });

  it('names a missing field at its place, the item included', () => {
    expect(checkResponse(list, [{ id: 1, schedule: { timezone: 'UTC' } }, { id: 2 }])).toEqual({ field: '[1].schedule', problem: 'missing' });
    expect(checkResponse(list, [{ id: 1, schedule: {} }])).toEqual({ field: '[0].schedule.timezone', problem: 'missing' });
  });

  it('says what type was expected and what came, a whole number as integer', () => {
    expect(checkResponse(list, [{ id: 1, schedule: { timezone: null } }])).toEqual({ field: '[0].schedule.timezone', problem: 'expected string, got null' });
    expect(checkResponse(list, [{ id: 1.5, schedule: { timezone: 'UTC' } }])).toEqual({ field: '[0].id', problem: 'expected integer, got number' });
    expect(checkResponse(list, [{ id: 1, schedule: [] }])).toEqual({ field: '[0].schedule', problem: 'expected object, got array' });
    expect(checkResponse(list, { id: 1 })).toEqual({ field: '(body)', problem: 'expected array, got object' });
  });

  it('quotes a word outside a vocabulary and the words allowed', () => {
    expect(checkResponse(list, [{ id: 1, state: 'GONE', schedule: { timezone: 'UTC' } }])).toEqual({ field: '[0].state', problem: 'expected one of "ACTIVE", "PAUSED", got "GONE"' });
  });

  it('writes a key that is no identifier as a quoted index (JSON Pointer escapes undone)', () => {
    expect(checkResponse(list, [{ id: 1, schedule: { timezone: 'UTC' }, 'odd key': ['x'] }])).toEqual({ field: '[0]["odd key"][0]', problem: 'expected integer, got string' });
    const slashed = { type: 'object', properties: { 'a/b~c': { type: 'string' } } };
    expect(checkResponse(slashed, { 'a/b~c': 1 })).toEqual({ field: '["a/b~c"]', problem: 'expected string, got integer' });
  });

  it('refuses a schema with a keyword Ajv does not know (a typo in a schema would accept every answer)', () => {
    expect(() => checkResponse({ type: 'object', propertiez: { id: { type: 'integer' } } }, { id: 'x' })).toThrow(/unknown keyword: "propertiez"/);
  });

  it('permissions grouped by principal type: USER and GROUP, either absent; another type is drift at its key, never read as no one', () => {
    const entry = { id: 'u-1', permissions: ['READ'] };
    expect(checkResponse(queuePermissionsReadSchema, { USER: [entry] })).toBeUndefined();
    expect(checkResponse(queuePermissionsReadSchema, {})).toBeUndefined();
    expect(checkResponse(queuePermissionsReadSchema, { USER: [entry], ROLE: [{ id: '5', permissions: ['ADMIN'] }] })).toEqual({
      field: 'ROLE',
      problem: 'not a field of the documented shape: what it holds is read by no policy',
    });
    expect(checkResponse(workflowPermissionsSchema, { GROUP: [{ ...entry, name: 'Finance' }], roles: [] })).toEqual({
      field: 'roles',
      problem: 'not a field of the documented shape: what it holds is read by no policy',
    });
  });

  it("keeps Ajv's own message for any other keyword", () => {
    expect(checkResponse({ type: 'string', pattern: '^[0-9]+$' }, 'x')).toEqual({ field: '(body)', problem: 'must match pattern "^[0-9]+$"' });
  });
});

describe('formatField', () => {
  it('joins identifiers with dots and writes indexes and other keys in brackets', () => {
    expect(formatField([])).toBe('(body)');
    expect(formatField(['users', '3', 'attributes'])).toBe('users[3].attributes');
    expect(formatField(['3', 'schedule', 'time zone'])).toBe('[3].schedule["time zone"]');
    expect(formatField(['$ref', '_x1'])).toBe('$ref._x1');
    expect(formatField(['users', '12', 'id'])).toBe('users[12].id');
    expect(formatField(['3a', '1e3'])).toBe('["3a"]["1e3"]');
  });
});
