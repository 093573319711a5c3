// Every kind of bad policy input is reported at the exact file:line:column of the offending
// node, all problems of a run together, in one InputError.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/core/problem.js';
import { compileAll, compilePolicy } from '../../src/policy/compile.js';
import { checkPolicyText } from '../../src/policy/policy-set.js';
import { loadPolicies, parsePolicyText } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import type { InputProblem } from '../../src/core/problem.js';
import { spawnCli } from '../cli/helpers.js';
import { KINDS } from '../fixtures/kinds.js';

/** The queue's fix kinds, as the registry lists them (the message names them all). */
const queueFixes = Object.keys(RESOURCE_KINDS.queue.fixes ?? {}).join(', ');

const problemsOf = (text: string): InputProblem[] => checkPolicyText(text, 'p.yaml', { kinds: KINDS });

const VALID = `policies:
  - id: queue-no-admin-for-users
    title: Queues grant ADMIN only through groups
    severity: high
    resource: queue
    each: resource.permissions
    when: item.type == 'USER'
    assert: "!('ADMIN' in item.permissions)"
    message: "User {{ item.name }} holds ADMIN on {{ resource.id }}"
    fix: { revoke: [ADMIN] }
`;

describe('policy loader', () => {
  it('reads a valid policy with defaults and field positions', () => {
    const { policies, problems } = parsePolicyText(VALID, 'p.yaml', { kinds: KINDS });
    expect(problems).toEqual([]);
    expect(policies).toHaveLength(1);
    const p = policies[0];
    expect(p).toMatchObject({ id: 'queue-no-admin-for-users', description: '', params: {}, tags: [], tests: [], fix: { revoke: ['ADMIN'] } });
    expect(p.location).toEqual({ file: 'p.yaml', line: 2, column: 5 });
    expect(p.fieldLocations.assert).toEqual({ file: 'p.yaml', line: 8, column: 13 });
    expect(p.fieldLocations.when).toEqual({ file: 'p.yaml', line: 7, column: 11 });
  });

  it('YAML syntax error', () => {
    expect(problemsOf('policies:\n  - id: a\n    title: [unclosed\n')).toEqual([
      expect.objectContaining({ file: 'p.yaml', line: 4, column: 1 }),
    ]);
    const [p] = problemsOf('policies:\n  - id: a\n   title: x\n');
    expect(p).toEqual({ file: 'p.yaml', line: 3, column: 1, message: 'YAML syntax error: Sequence item without - indicator' });
  });

  it('schema violation: wrong value, unknown field, missing field', () => {
    const text = VALID.replace('severity: high', 'severity: urgent').replace('    fix:', '    asert: x\n    fix:');
    // In reading order, the misspelt key with the field it most likely means.
    expect(problemsOf(text)).toEqual([
      { file: 'p.yaml', line: 4, column: 15, message: 'severity: must be one of: info, low, medium, high, critical' },
      { file: 'p.yaml', line: 10, column: 5, message: "policies[0]: unknown field 'asert' (did you mean 'assert'?)" },
    ]);
    expect(problemsOf(text.replace('asert', 'zzz'))[1].message).toMatch(/^policies\[0\]: unknown field 'zzz' \(allowed: id, title, /);
    expect(problemsOf(VALID.replace('    title: Queues grant ADMIN only through groups\n', ''))).toEqual([
      { file: 'p.yaml', line: 2, column: 5, message: "policies[0]: missing required field 'title'" },
    ]);
    expect(problemsOf(`${VALID}    tests:\n      - name: t\n        resource: {}\n        violations: -1\n`)).toEqual([
      { file: 'p.yaml', line: 14, column: 21, message: 'tests[0].violations: must be >= 0' },
    ]);
  });

  it('file-level shape errors name what is wrong', () => {
    expect(problemsOf('')).toEqual([{ file: 'p.yaml', line: 1, column: 1, message: 'the file: must be object' }]);
    expect(problemsOf('policies:\n  - 3\n')).toEqual([{ file: 'p.yaml', line: 2, column: 5, message: 'policies[0]: must be object' }]);
  });

  it('CEL syntax error points at the column inside the expression', () => {
    expect(problemsOf(VALID.replace('{{ item.name }}', '{{ }}'))).toEqual([
      { file: 'p.yaml', line: 9, column: 23, message: 'CEL syntax error: unexpected end of input' },
    ]);
    expect(problemsOf(VALID.replace("when: item.type == 'USER'", "when: item.type == = 'USER'"))).toEqual([
      // the parser stops at the operator whose right side is missing
      { file: 'p.yaml', line: 7, column: 21, message: 'CEL syntax error: found = but expecting end of input' },
    ]);
    // Inside a double-quoted scalar the quote is skipped; inside a message segment the braces.
    expect(problemsOf(VALID.replace('{{ item.name }}', '{{ item.name + }}'))[0]).toMatchObject({ line: 9, column: 33 });
  });

  it('CEL in a block scalar maps to its own line and column', () => {
    const text = VALID.replace("    when: item.type == 'USER'\n", "    when: |\n      item.type == 'USER' &&\n        item.nme.size() > 0 && itm\n");
    expect(problemsOf(text)).toEqual([
      expect.objectContaining({ line: 9, column: 32, message: expect.stringMatching(/^undeclared variable 'itm'/) }),
    ]);
  });

  it('CEL undeclared variable, unknown function, undeclared parameter, type errors', () => {
    expect(problemsOf(VALID.replace("assert: \"!('ADMIN' in item.permissions)\"", 'assert: resurce.id != ""'))).toEqual([
      { file: 'p.yaml', line: 8, column: 13, message: "undeclared variable 'resurce'; available: resource, item, params, now" },
    ]);
    const noEach = VALID.replace('    each: resource.permissions\n', '').replace('    fix: { revoke: [ADMIN] }\n', '');
    expect(problemsOf(noEach)[0]).toEqual({
      file: 'p.yaml',
      line: 6,
      column: 11,
      message: "undeclared variable 'item' (`item` exists only in a policy with `each`); available: resource, params, now",
    });
    expect(problemsOf(VALID.replace("when: item.type == 'USER'", 'when: isUser(item)'))).toEqual([
      { file: 'p.yaml', line: 7, column: 11, message: "unknown function 'isUser'" },
    ]);
    expect(problemsOf(VALID.replace("when: item.type == 'USER'", 'when: size(item.permissions) > params.max'))).toEqual([
      { file: 'p.yaml', line: 7, column: 42, message: "undeclared parameter 'max' (declared: none)" },
    ]);
    expect(problemsOf(VALID.replace("when: item.type == 'USER'", 'when: size(item.permissions)'))).toEqual([
      { file: 'p.yaml', line: 7, column: 11, message: 'type error: must be a bool expression, this one yields a number' },
    ]);
  });

  it('unknown resource kind', () => {
    expect(problemsOf(VALID.replace('resource: queue', 'resource: queues'))).toEqual([
      {
        file: 'p.yaml',
        line: 5,
        column: 15,
        message: `unknown resource kind "queues" (known: ${Object.keys(KINDS).sort().join(', ')})`,
      },
    ]);
  });

  it('unknown fix kind for that kind, bad fix value, item fix without each', () => {
    expect(problemsOf(VALID.replace('fix: { revoke: [ADMIN] }', 'fix: { publicAccess: false }'))).toEqual([
      { file: 'p.yaml', line: 10, column: 12, message: `unknown fix kind 'publicAccess' for resource kind 'queue' (allowed: ${queueFixes})` },
    ]);
    expect(problemsOf(VALID.replace('fix: { revoke: [ADMIN] }', 'fix: { revoke: [ADMIN, ROOT] }'))).toEqual([
      { file: 'p.yaml', line: 10, column: 28, message: expect.stringMatching(/^fix\.revoke\[1\]: must be one of: ADMIN, SHARE/) },
    ]);
    const wf = VALID.replace('resource: queue', 'resource: workflow').replace('fix: { revoke: [ADMIN] }', 'fix: { remove: true }');
    expect(problemsOf(wf)).toEqual([
      { file: 'p.yaml', line: 10, column: 12, message: "unknown fix kind 'remove' for resource kind 'workflow' (this kind has no fixes)" },
    ]);
    const noEach = VALID.replace('    each: resource.permissions\n    when: item.type == \'USER\'\n', '').replace(
      "assert: \"!('ADMIN' in item.permissions)\"",
      'assert: size(resource.permissions) > 0',
    ).replace('{{ item.name }}', 'someone');
    expect(problemsOf(noEach)).toEqual([
      { file: 'p.yaml', line: 8, column: 12, message: "fix 'revoke' applies to an item: the policy needs `each`" },
    ]);
  });

  it('duplicate id points at the second, across files, with every problem collected', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-policies-'));
    writeFileSync(path.join(dir, 'a.yaml'), VALID);
    writeFileSync(path.join(dir, 'b.yml'), `# second\n${VALID.replace('severity: high', 'severity: nope')}`);
    writeFileSync(path.join(dir, 'notes.txt'), 'not a policy');
    const err = await loadPolicies(['.'], { kinds: KINDS, cwd: dir }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).problems).toEqual([
      { file: 'b.yml', line: 3, column: 9, message: "duplicate policy id 'queue-no-admin-for-users' (first defined at a.yaml:2:9)" },
      { file: 'b.yml', line: 5, column: 15, message: 'severity: must be one of: info, low, medium, high, critical' },
    ]);
    expect((err as InputError).message).toContain("b.yml:3:9: duplicate policy id 'queue-no-admin-for-users'");
  });

  it('a missing path is a problem; files load in order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-policies-'));
    writeFileSync(path.join(dir, 'one.yaml'), VALID);
    const err = await loadPolicies(['one.yaml', 'missing/'], { kinds: KINDS, cwd: dir }).catch((e: unknown) => e);
    expect((err as InputError).problems).toEqual([{ file: 'missing/', line: 0, column: 0, message: 'no such policy file or folder' }]);
    const ok = await loadPolicies(['one.yaml'], { kinds: KINDS, cwd: dir });
    expect(ok.map((p) => `${p.location.file}:${p.location.line}`)).toEqual(['one.yaml:2']);
  });
});

describe('the order files load in', () => {
  it("a folder's files load in code-unit order, the same under any locale (an Estonian one sorts z before t)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-policies-'));
    for (const name of ['t', 'z', 'B', 'a_b', 'a-b']) writeFileSync(path.join(dir, `${name}.yaml`), VALID.replace('queue-no-admin-for-users', `from-${name.toLowerCase().replace('_', 'x')}`));
    const listed = async (locale: string) => {
      const r = await spawnCli(['list', '--format', 'json', '-p', 'z.yaml', '-p', '.'], { cwd: dir, env: { LC_ALL: locale, LANG: locale } });
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as { id: string }[]).map((p) => p.id);
    };
    // A path named first keeps its place; the folder adds the rest in code-unit order.
    const expected = ['from-z', 'from-b', 'from-a-b', 'from-axb', 'from-t'];
    expect(await listed('et_EE.UTF-8')).toEqual(expected);
    expect(await listed('C')).toEqual(expected);
  });

  it('in process too: subfolders among the files, each in code-unit order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-policies-'));
    mkdirSync(path.join(dir, 'm'));
    for (const name of ['t', 'B', 'a', 'm/z', 'm/c']) writeFileSync(path.join(dir, `${name}.yaml`), VALID.replace('queue-no-admin-for-users', `from-${name.toLowerCase().replace('/', '-')}`));
    const policies = await loadPolicies(['.'], { kinds: KINDS, cwd: dir });
    expect(policies.map((p) => p.location.file)).toEqual(['B.yaml', 'a.yaml', 'm/c.yaml', 'm/z.yaml', 't.yaml']);
  });
});

describe('problem order', () => {
  it('problems of several files come sorted by file, line, column', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'steward-policies-'));
    writeFileSync(path.join(dir, 'a.yaml'), VALID.replace('severity: high', 'severity: nope'));
    const err = await loadPolicies(['zz-missing/', 'a.yaml'], { kinds: KINDS, cwd: dir }).catch((e: unknown) => e);
    expect((err as InputError).problems.map((p) => `${p.file}:${p.line}`)).toEqual(['a.yaml:4', 'zz-missing/:0']);
  });
});

describe('policy tests at load', () => {
  const withTests = (tests: string) =>
    `${VALID.replace('    fix:', '    params: { max: 2, label: x }\n    fix:')}    tests:\n${tests}`;

  it('a test parameter has the JSON type of its default; an unknown one names the closest', () => {
    const text = withTests(
      '      - name: a\n        resource: {}\n        params: { max: "3", label: y, lable: z }\n        violations: 0\n',
    );
    expect(problemsOf(text)).toEqual([
      { file: 'p.yaml', line: 15, column: 24, message: 'test params.max: must be a number like its default' },
      { file: 'p.yaml', line: 15, column: 39, message: "test sets undeclared parameter 'lable' (did you mean 'label'?)" },
    ]);
    expect(problemsOf(withTests('      - name: a\n        resource: {}\n        params: { max: 4.5 }\n        violations: 0\n'))).toEqual([]);
  });

  it('two tests of one policy with the same name', () => {
    const text = withTests(
      '      - name: same\n        resource: {}\n        violations: 0\n      - name: same\n        resource: {}\n        violations: 1\n',
    );
    expect(problemsOf(text)).toEqual([
      { file: 'p.yaml', line: 16, column: 15, message: "duplicate test name 'same' in this policy (first at line 13)" },
    ]);
  });
});

describe('one compiler', () => {
  it('the loader returns plain definitions with where each expression stands; compileAll compiles and type-checks them', async () => {
    const [def] = await loadPolicies([path.resolve(import.meta.dirname, '../../policies/queues.yaml')], { kinds: RESOURCE_KINDS });
    expect(Object.getOwnPropertySymbols(def)).toEqual([]);
    expect(Object.keys(def.expressionOrigins ?? {}).sort()).toEqual(['assert', 'each', 'message', 'when']);
    const [compiled] = compileAll([def], RESOURCE_KINDS);
    expect([compiled.each?.source, compiled.when?.source, compiled.assert.source]).toEqual([def.each, def.when, def.assert]);
    // Typed against the kind's document: a field the queue document does not have is an error at its column.
    const typo = { ...def, assert: 'resource.permissionz != []' };
    expect(() => compileAll([typo], RESOURCE_KINDS)).toThrow(/^policies\/queues\.yaml:\d+:\d+: /);
    expect(() => compilePolicy(typo)).not.toThrow(); // without kinds nothing types `resource`
  });
});
