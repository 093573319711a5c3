// Own schemas compiled ahead of time (core/own-validators.generated.js): the committed file is
// what the build writes from the current schemas, every schema steward uses has its validator
// there, each precompiled validator answers exactly as Ajv compiling the schema at run time
// does, and a schema the build never saw is compiled when first used.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import equal from 'ajv/dist/runtime/equal.js';
import ucs2length from 'ajv/dist/runtime/ucs2length.js';
import { ownValidatorGroups, ownValidatorsChunks, ownValidatorsModule } from '../../scripts/own-validators.mjs';
import { errorsText, OWN_SCHEMA, type OwnSchema, ownSchemaKey, ownValidator, validatorsBy } from '../../src/core/own-validator.js';
import { precompiledValidator } from '../../src/core/own-validators.generated.js';
import { schemaProblems } from '../../src/io/schema-problems.js';
import { parseYamlSource, type YamlSource } from '../../src/io/yaml-source.js';
import { ownSchemas } from '../../src/library/own-schemas.js';
import { policyValidation } from '../../src/policy/schema.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.resolve(ROOT, '../shared/platform-fixtures');
const GENERATED = path.join(ROOT, 'src/core/own-validators.generated.js');

const entries = ownSchemas();

/** What a run compiling the schema itself would do (what ownValidator falls back to). */
const compiledNow = (own: OwnSchema) => new Ajv({ ...own.options, ...OWN_SCHEMA }).compile(own.schema);

/** Every object of a schema, by identity. */
function objectsOf(root: unknown): Set<unknown> {
  const found = new Set<unknown>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object' || found.has(node)) return;
    found.add(node);
    for (const v of Object.values(node)) walk(v);
  };
  walk(root);
  return found;
}

/** The fields of an error a message is built from, and whether its `parentSchema` is an object of the validator's own `schema`. */
const shape = (validate: ValidateFunction) => {
  const all = objectsOf(validate.schema);
  return (validate.errors ?? []).map((e: ErrorObject) => ({
    instancePath: e.instancePath,
    schemaPath: e.schemaPath,
    keyword: e.keyword,
    params: e.params,
    message: e.message,
    schema: e.schema,
    data: e.data,
    parentSchemaInSchema: all.has(e.parentSchema),
  }));
};

/**
 * The problems a user reads: error wording tells a `$ref` branch's errors by their schema
 * objects (io/schema-problems.ts), so it is compared on the words, at their lines.
 */
const sources = new Map<unknown, YamlSource>();
function wordedProblems(validate: ValidateFunction, doc: unknown): string[] {
  let source = sources.get(doc);
  if (!source) {
    source = parseYamlSource(stringify(doc), 'doc.yaml');
    sources.set(doc, source);
  }
  const definitions = (validate.schema as { definitions?: Record<string, unknown> }).definitions;
  return schemaProblems(source, validate.errors, { definitions }).map((p) => `${p.line}:${p.column} ${p.message}`);
}

/** A small deterministic generator: the same variants on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

const ODD_VALUES: unknown[] = [null, 7, -1, 2.5, '', 'x', true, [], {}, ['a'], { unexpected: 1 }];

/** `doc` with one place changed: a value of another type, a key removed, or a key added. */
function variant(doc: unknown, next: () => number): unknown {
  const copy = structuredClone(doc);
  const places: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      places.push([v as Record<string, unknown>, Array.isArray(v) ? Number(k) : k]);
      walk(x);
    }
  };
  walk(copy);
  if (places.length === 0) return ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
  const [holder, at] = places[Math.floor(next() * places.length)];
  const choice = next();
  if (choice < 0.6) (holder as Record<string | number, unknown>)[at] = ODD_VALUES[Math.floor(next() * ODD_VALUES.length)];
  else if (choice < 0.8 && !Array.isArray(holder)) delete (holder as Record<string, unknown>)[at as string];
  else if (!Array.isArray(holder)) (holder as Record<string, unknown>).notAField = 1;
  return copy;
}

/** Real documents of every kind: the demo's inputs, the shipped policies, the platform's real answers. */
function documents(): unknown[] {
  const yamlIn = (dir: string): unknown[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? yamlIn(path.join(dir, e.name)) : e.name.endsWith('.yaml') ? [parse(readFileSync(path.join(dir, e.name), 'utf8'))] : [],
    );
  const answers = readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => {
      const { _source, ...rest } = JSON.parse(readFileSync(path.join(FIXTURES, f), 'utf8')) as Record<string, unknown>;
      return [rest, ...Object.values(rest)];
    });
  return [...yamlIn(path.join(ROOT, 'demo')), ...yamlIn(path.join(ROOT, 'policies')), ...answers, ...ODD_VALUES];
}

describe('own validators compiled ahead of time', () => {
  it('the committed file is what the build writes from the current schemas', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(ownValidatorsModule(ownValidatorGroups(entries, ownSchemaKey)));
  });

  it('every schema steward uses is precompiled, and ownValidator hands over that validator', () => {
    expect(entries.length).toBeGreaterThan(40);
    for (const [name, own] of entries) {
      const precompiled = precompiledValidator(ownSchemaKey(own));
      expect(precompiled, name).toBeTypeOf('function');
      expect(ownValidator(own), name).toBe(precompiled);
    }
  });

  it('each precompiled validator answers as Ajv compiling the schema now: valid or not, and the same errors', () => {
    const docs = documents();
    const next = random(29);
    const variants = docs.flatMap((d) => Array.from({ length: 6 }, () => variant(d, next)));
    let invalid = 0;
    for (const [name, own] of entries) {
      const before = ownValidator(own);
      const now = compiledNow(own);
      for (const doc of [...docs, ...variants]) {
        const a = before(doc);
        const b = now(doc);
        expect(a, name).toBe(b);
        if (!a) {
          invalid++;
          expect(shape(before), name).toEqual(shape(now));
          // Only a schema with definitions is worded by its objects' identity.
          if ('definitions' in own.schema) expect(wordedProblems(before, doc), name).toEqual(wordedProblems(now, doc));
        }
      }
    }
    // The comparison reached the error paths, not only documents every schema accepts.
    expect(invalid).toBeGreaterThan(1000);
  });

  it("the CLI's form (a chunk per group, required at its first use) holds the same validators, answering alike", () => {
    const { module, chunks } = ownValidatorsChunks(ownValidatorGroups(entries, ownSchemaKey));
    // Every chunk the module requires is written, and only those.
    const required = [...module.matchAll(/require\("\.\/([\w-]+\.cjs)"\)\.make\(\{ runtime0, runtime1 \}, withSchema\)/g)].map(([, name]) => name);
    expect(required.sort()).toEqual([...chunks.keys()].sort());
    expect(required).toEqual(expect.arrayContaining(['validators-config.cjs', 'validators-answer.cjs', 'validators-fix.cjs']));
    // Each chunk's validators, made as the module makes them, by id; the ids by key from the module's KEYS.
    // As the module takes them: a helper is the function itself under some loaders (vitest's interop).
    const helper = (m: unknown) => (typeof m === 'function' ? { default: m } : m);
    const helpers = { runtime0: helper(ucs2length), runtime1: helper(equal) };
    const byId = new Map<string, ValidateFunction>();
    for (const text of chunks.values()) {
      const exports: { make?: (h: typeof helpers, withSchema: (schema: unknown, v: ValidateFunction) => ValidateFunction) => Record<string, ValidateFunction> } = {};
      new Function('exports', text)(exports);
      for (const [id, validate] of Object.entries(exports.make!(helpers, (schema, v) => Object.assign(v, { schema })))) byId.set(id, validate);
    }
    const keys = new Function(`return ${/new Map\(\[\n[\s\S]*?\n\]\)/.exec(module)![0]};`)() as Map<string, string>;
    const docs = documents();
    const next = random(7);
    const variants = docs.flatMap((d) => Array.from({ length: 2 }, () => variant(d, next)));
    for (const [name, own] of entries) {
      const inChunk = byId.get(keys.get(ownSchemaKey(own))!)!;
      const inModule = precompiledValidator(ownSchemaKey(own))!;
      expect(inChunk.schema, name).toEqual(own.schema);
      for (const doc of [...docs, ...variants]) {
        expect(inChunk(doc), name).toBe(inModule(doc));
        expect(inChunk.errors, name).toEqual(inModule.errors);
      }
    }
  });

  it('a schema the build never saw (a plugin kind widens the policy schema) is compiled when first used', () => {
    const plugin = { ...RESOURCE_KINDS, pluginThing: { ...RESOURCE_KINDS.queue, name: 'pluginThing' } };
    const own = policyValidation(plugin);
    expect(precompiledValidator(ownSchemaKey(own))).toBeUndefined();
    const validate = ownValidator(own);
    const policy = { id: 'p', title: 'T', description: 'D', severity: 'low', resource: 'pluginThing', assert: 'true', message: 'm' };
    expect(validate({ policies: [policy] })).toBe(true);
    expect(ownValidator(policyValidation(RESOURCE_KINDS))({ policies: [policy] })).toBe(false);
  });

  it('a key changes with the schema and with the options', () => {
    const own: OwnSchema = { schema: { type: 'string' }, options: { allErrors: true } };
    expect(ownSchemaKey(own)).toBe(ownSchemaKey({ schema: { type: 'string' }, options: { allErrors: true } }));
    expect(ownSchemaKey(own)).not.toBe(ownSchemaKey({ schema: { type: 'number' }, options: { allErrors: true } }));
    expect(ownSchemaKey(own)).not.toBe(ownSchemaKey({ schema: { type: 'string' }, options: { allErrors: false } }));
  });

  it('validatorsBy makes each key\'s validator once, at its first use, and a validator per key', () => {
    const asked: string[] = [];
    const validatorOf = validatorsBy((key: { type: string }) => {
      asked.push(key.type);
      return { schema: { type: key.type }, options: { allErrors: true } };
    });
    const text = { type: 'string' };
    const number = { type: 'number' };
    expect(asked).toEqual([]);
    const first = validatorOf(text);
    expect(validatorOf(text)).toBe(first);
    expect(first('a')).toBe(true);
    expect(validatorOf(number)('a')).toBe(false);
    expect(validatorOf(number)(1)).toBe(true);
    expect(asked).toEqual(['string', 'number']);
  });

  it('errorsText says each error as Ajv does', () => {
    const validate = compiledNow({ schema: { type: 'array', items: { type: 'string' }, maxItems: 1 }, options: { allErrors: true } });
    validate([1, 'a']);
    expect(errorsText(validate.errors, 'value')).toBe(new Ajv().errorsText(validate.errors, { dataVar: 'value' }));
    expect(errorsText(validate.errors, 'value')).toBe('value must NOT have more than 1 items, value/0 must be string');
    expect(errorsText(null)).toBe('No errors');
  });
});
