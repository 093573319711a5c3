// schema/policy.schema.json is what editors load: it must equal the schema generated from the
// real resource-kind registry. STEWARD_WRITE_SCHEMA=1 rewrites it.
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { checkPolicyText } from '../../src/policy/policy-set.js';
import { buildPolicySchema, policySchemaText } from '../../src/policy/schema.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { KINDS } from '../fixtures/kinds.js';

const FILE = 'schema/policy.schema.json';

describe('policy schema', () => {
  it('the committed schema file is up to date', () => {
    const generated = policySchemaText(RESOURCE_KINDS);
    if (process.env.STEWARD_WRITE_SCHEMA === '1') writeFileSync(FILE, generated);
    expect(readFileSync(FILE, 'utf8')).toBe(generated);
  });

  it('the fixture registry has the real kinds and fix kinds', () => {
    const shape = (r: typeof KINDS) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Object.keys(v.fixes ?? {}).sort()]));
    expect(shape(KINDS)).toEqual(shape(RESOURCE_KINDS));
  });

  it('compiles under ajv strict mode and enumerates the kinds', () => {
    const schema = buildPolicySchema(KINDS);
    expect(() => new Ajv({ strict: true }).compile(schema)).not.toThrow();
    const resource = (schema.definitions as { policy: { properties: { resource: { enum: string[] } } } }).policy.properties.resource;
    expect(resource.enum).toEqual(Object.keys(RESOURCE_KINDS).sort());
    expect(resource.enum).toEqual(expect.arrayContaining(['dataset', 'queue', 'reportSchedule']));
  });

  it('the built-in pack is valid against the real registry too', () => {
    for (const f of ['queues', 'data-files', 'datasets']) {
      const text = readFileSync(`policies/${f}.yaml`, 'utf8');
      expect(checkPolicyText(text, f, { kinds: RESOURCE_KINDS })).toEqual([]);
    }
  });
});
