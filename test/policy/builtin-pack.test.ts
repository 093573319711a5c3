// The built-in pack as the build parsed it (dist/builtin-policies.json): the same definitions as
// parsing each shipped file, taken only for the very text and policy schema it was parsed from.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { celEnv, parse } from '@bufbuild/cel';
import { ExprSchema } from '@bufbuild/cel-spec/cel/expr/syntax_pb.js';
import { equals } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { BUILTIN_PACK_FILE, builtinPackJson } from '../../src/library/builtin-pack.js';
import { builtinPolicies } from '../../src/policy/builtin-pack.js';
import { decodeKnownAst } from '../../src/policy/known-ast.js';
import { builtinPolicyDir, parsePolicyText, readPolicies } from '../../src/policy/loader.js';
import { loadCompiledPolicies } from '../../src/policy/policy-set.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { tempDir } from '../cli/helpers.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const shipped = () =>
  readdirSync(builtinPolicyDir())
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((name) => ({ name, text: readFileSync(path.join(builtinPolicyDir(), name), 'utf8') }));

/** What parsing gives, as data: an expression's offset function is not kept in the pack. */
const asData = (value: unknown) => JSON.parse(JSON.stringify(value));

/** The policies the shipped files define, as parsing them counts (never a number kept here). */
const shippedPolicyCount = () => shipped().reduce((n, { name, text }) => n + parsePolicyText(text, name, { kinds: RESOURCE_KINDS }).policies.length, 0);

describe('the built-in pack as parsed by the build', () => {
  it('is what the build writes from the shipped files (dist/ is built by the suite)', async () => {
    expect(readFileSync(path.join(ROOT, BUILTIN_PACK_FILE), 'utf8')).toBe(await builtinPackJson(shipped(), RESOURCE_KINDS));
  });

  it('gives every shipped file the definitions parsing it gives, every location naming the file as the run shows it', () => {
    const files = shipped();
    expect(files.length).toBeGreaterThan(5);
    let policies = 0;
    for (const { name, text } of files) {
      // A path JSON must escape, and what a replacement string would read as patterns.
      const display = `some\\"where" $& $'/${name}`;
      const parsed = parsePolicyText(text, display, { kinds: RESOURCE_KINDS });
      expect(parsed.problems).toEqual([]);
      const packed = builtinPolicies(ROOT, name, text, display, RESOURCE_KINDS);
      expect(packed, name).toEqual(asData(parsed.policies));
      expect(JSON.stringify(packed)).not.toContain('\\u0000');
      policies += packed!.length;
    }
    expect(policies).toBe(shippedPolicyCount());
    expect(policies).toBeGreaterThan(files.length);
  });

  it('is what a run reads for the shipped pack (no policy of it was parsed: no expression keeps an offset function)', async () => {
    const { policies, problems } = await readPolicies(['builtin'], { kinds: RESOURCE_KINDS, cwd: ROOT });
    expect(problems).toEqual([]);
    expect(policies).toHaveLength(shippedPolicyCount());
    expect(policies.filter((p) => Object.values(p.expressionOrigins ?? {}).some((o) => typeof (o as { at?: unknown }).at === 'function')).map((p) => p.id)).toEqual([]);
    // A file parsed at run time keeps them.
    const [parsed] = parsePolicyText(shipped()[0].text, 'x.yaml', { kinds: RESOURCE_KINDS }).policies;
    expect(typeof (parsed.expressionOrigins!.assert as { at?: unknown }).at).toBe('function');
  });

  it('keeps the AST of every expression of its policies, message for message what the parser gives, and the engine\'s function names', () => {
    const pack = JSON.parse(readFileSync(path.join(ROOT, BUILTIN_PACK_FILE), 'utf8')) as { known: { asts: Record<string, string>; functions: string[] } };
    const sources = Object.keys(pack.known.asts);
    // Every `assert`, `when` and `each` of every shipped policy (message segments too: each is parsed below).
    const fields = shipped().flatMap(({ name, text }) => parsePolicyText(text, name, { kinds: RESOURCE_KINDS }).policies.flatMap((p) => [p.assert, p.when, p.each]));
    expect(sources).toEqual(expect.arrayContaining([...new Set(fields.filter((f): f is string => typeof f === 'string'))]));
    expect(sources).toContain('resource.schedule.timezone != null && isTimeZone(resource.schedule.timezone)');
    for (const source of sources) {
      const parsed = parse(source);
      const known = decodeKnownAst(pack.known.asts[source]);
      expect(equals(ExprSchema, known.ast, parsed.expr!), source).toBe(true);
      expect(known.positions, source).toEqual(Object.fromEntries(Object.entries(parsed.sourceInfo!.positions).map(([id, at]) => [id, Number(at)])));
    }
    // The standard library's names and steward's own, as the run's engine has them.
    const standard = [...celEnv().funcs].map((f) => f.name);
    expect(pack.known.functions).toEqual([...new Set([...standard, 'isTimeZone', 'label', '@steward_step'])].sort());
  });

  it('compiles with no warning: every field its policies read is one their kind declares, or far from any', async () => {
    const compiled = await loadCompiledPolicies(['builtin'], { kinds: RESOURCE_KINDS, cwd: ROOT });
    expect(compiled.length).toBeGreaterThan(0);
    expect(compiled.flatMap((p) => p.warnings)).toEqual([]);
  });

  it('is not taken for a changed text, for another policy schema (a plugin kind), or without a pack', () => {
    const [{ name, text }] = shipped();
    expect(builtinPolicies(ROOT, name, `${text}\n# edited\n`, name, RESOURCE_KINDS)).toBeUndefined();
    const plugin = { ...RESOURCE_KINDS, pluginThing: { ...RESOURCE_KINDS.queue, name: 'pluginThing' } };
    expect(builtinPolicies(ROOT, name, text, name, plugin)).toBeUndefined();
    expect(builtinPolicies(tempDir('steward-pack-'), name, text, name, RESOURCE_KINDS)).toBeUndefined();
    expect(builtinPolicies(ROOT, name, text, name, RESOURCE_KINDS)).toBeDefined();
  });

  it('keeps a parameter or test value named `file`: only a location\'s file is the file', async () => {
    const dir = tempDir('steward-pack-');
    const text = `policies:
  - id: files-named
    title: Files named
    description: A test resource with a field called file.
    severity: low
    resource: queue
    params: { file: a.yaml }
    assert: "true"
    tests:
      - name: named
        resource: { id: q-1, file: a.yaml }
        violations: 0
`;
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, BUILTIN_PACK_FILE), await builtinPackJson([{ name: 'a.yaml', text }], RESOURCE_KINDS));
    const [policy] = builtinPolicies(dir, 'a.yaml', text, 'shown/a.yaml', RESOURCE_KINDS)!;
    expect(policy.params).toEqual({ file: 'a.yaml' });
    expect(policy.tests[0].resource).toEqual({ id: 'q-1', file: 'a.yaml' });
    expect([policy.location.file, policy.tests[0].location.file, policy.fieldLocations.assert?.file]).toEqual(['shown/a.yaml', 'shown/a.yaml', 'shown/a.yaml']);
  });

  it('a policy id of the pack met again in a later file is a duplicate there, as when parsed', async () => {
    const dir = tempDir('steward-pack-');
    const [first] = parsePolicyText(shipped()[0].text, 'x.yaml', { kinds: RESOURCE_KINDS }).policies;
    writeFileSync(
      path.join(dir, 'mine.yaml'),
      `policies:\n  - id: ${first.id}\n    title: T\n    description: D\n    severity: low\n    resource: ${first.resource}\n    assert: "true"\n`,
    );
    const { problems } = await readPolicies(['builtin', 'mine.yaml'], { kinds: RESOURCE_KINDS, cwd: dir });
    expect(problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`)).toEqual([
      `mine.yaml:2:9: duplicate policy id '${first.id}' (first defined at ${path.relative(dir, path.join(builtinPolicyDir(), shipped()[0].name))}:${first.location.line}:${first.fieldLocations.id!.column})`,
    ]);
  });
});
