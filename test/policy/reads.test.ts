// Which top-level resource fields an expression reads (the engine loads a part only then),
// and the compiled policy's select/judge read sets and parameters.
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { compileExpression } from '../../src/policy/cel.js';
import { compilePolicy, withParams } from '../../src/policy/compile.js';
import { readsField, readsOf } from '../../src/policy/reads.js';
import type { PolicyDefinition } from '../../src/policy/types.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';

const reads = (source: string) =>
  readsOf(compileExpression(source, { file: 'p', line: 1, column: 1 }, { variables: ['resource', 'item', 'params', 'now'] }).ast);

describe('reads analysis', () => {
  it.each([
    ["resource.certification.state == 'ACTIVE'", { all: false, fields: ['certification'] }],
    ["resource.access.list.exists(e, e.type == 'GROUP')", { all: false, fields: ['access'] }],
    ['has(resource.name) && resource.name != ""', { all: false, fields: ['name'] }],
    ["resource['access'].list.size() > 0 && resource.id != ''", { all: false, fields: ['access', 'id'] }],
    ["'ADMIN' in item.permissions", { all: false, fields: [] }],
    ['params.max > 0 && now > timestamp("2020-01-01T00:00:00Z")', { all: false, fields: [] }],
    // a comprehension variable named `resource` shadows the document
    ['[1].exists(resource, resource > 0)', { all: false, fields: [] }],
  ])('%s', (source, expected) => {
    expect(reads(source)).toEqual(expected);
  });

  it.each([
    'size(resource) > 0',
    "resource.exists(k, k == 'access')",
    "resource[params.key] == 1",
    'resource == {}',
    '[resource].size() == 1',
  ])('%s reads everything', (source) => {
    const set = reads(source);
    expect(set).toEqual({ all: true, fields: [] });
    expect(readsField(set, 'access')).toBe(true);
  });
});

const def = (over: Partial<PolicyDefinition>): PolicyDefinition => ({
  id: 'p',
  title: 'P',
  description: '',
  severity: 'high',
  resource: 'dataset',
  assert: 'true',
  message: 'm',
  params: {},
  tags: [],
  enforcement: "hard",
  controls: {},
  tests: [],
  location: { file: 'p.yaml', line: 2, column: 5 },
  fieldLocations: {},
  ...over,
});

describe('compilePolicy', () => {
  it('select reads each+when, judge reads assert+message', () => {
    const p = compilePolicy(
      def({
        when: "resource.certification.state == 'ACTIVE'",
        assert: "resource.access.list.exists(e, e.accessLevel == 'OWNER')",
        message: 'Dataset {{ resource.id }} lacks an owner',
      }),
    );
    expect(p.reads).toEqual({
      select: { all: false, fields: ['certification'] },
      judge: { all: false, fields: ['access', 'id'] },
    });
    expect(p.eachPath).toBeNull();
    const q = compilePolicy(def({ resource: 'queue', each: 'resource.permissions', when: "item.type == 'USER'", assert: 'size(item.permissions) > 0' }));
    expect(q.reads).toEqual({ select: { all: false, fields: ['permissions'] }, judge: { all: false, fields: [] } });
    expect(q.eachPath).toBe('permissions');
  });

  it('merges config overrides into the defaults; unknown or mistyped keys are input problems', () => {
    const d = def({ params: { maxInvalid: 0, label: 'x' }, assert: 'resource.invalid <= params.maxInvalid' });
    expect(compilePolicy(d).params).toEqual({ maxInvalid: 0, label: 'x' });
    expect(withParams(compilePolicy(d), { maxInvalid: 4 }).params).toEqual({ maxInvalid: 4, label: 'x' });
    const where = { file: 'steward.yaml', line: 7, column: 3 };
    let err: unknown;
    try {
      withParams(compilePolicy(d), { maxinvalid: 4, label: 3 }, where);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problems).toEqual([
      { ...where, message: "params.p: unknown parameter 'maxinvalid' (declared: maxInvalid, label)" },
      { ...where, message: 'params.p.label: must be a string like its default' },
    ]);
  });

  it('an override holding a word the field it is compared with never holds is an input problem', () => {
    const d = def({ params: { states: ['ACTIVE'], label: 'x' }, assert: "resource.certification.state in params.states && resource.certification.state != 'EXPIRED'" });
    const compiled = compilePolicy(d, { kinds: RESOURCE_KINDS });
    expect(compiled.paramWords).toEqual(new Map([['states', ['ACTIVE', 'EXPIRED', 'PENDING', 'REQUESTED', null]]]));
    expect(withParams(compiled, { states: ['ACTIVE', 'EXPIRED'] }).params).toEqual({ states: ['ACTIVE', 'EXPIRED'], label: 'x' });
    const where = { file: 'steward.yaml', line: 7, column: 3 };
    expect(() => withParams(compiled, { states: ['ACTIVE', 'CERTIFIED', 'Expired'], label: 'CERTIFIED' }, where)).toThrow(
      expect.objectContaining({ problems: [{ ...where, message: "params.p.states: 'CERTIFIED', 'Expired' are none of the values the policy compares it with (ACTIVE, EXPIRED, PENDING, REQUESTED, null)" }] }),
    );
    // Without the kinds no field is typed, so no parameter is held to a vocabulary.
    expect(compilePolicy(d).paramWords.size).toBe(0);
  });

  it('problems come in reading order, whatever order the fields are compiled in', () => {
    const d = def({
      assert: 'asert(resource)',
      message: '{{ resorce.id }}',
      fieldLocations: { assert: { file: 'p.yaml', line: 9, column: 13 }, message: { file: 'p.yaml', line: 6, column: 14 } },
    });
    const err = (() => {
      try {
        compilePolicy(d);
      } catch (e) {
        return e as InputError;
      }
    })();
    expect(err?.problems.map((p) => `${p.line}:${p.column}`)).toEqual(['6:17', '9:13']);
  });
});
