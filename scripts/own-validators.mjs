// Writes src/core/own-validators.generated.js: every schema of src/library/own-schemas.ts
// compiled ahead of time into Ajv's standalone code, by its key (core/own-validator.ts). Called
// by scripts/build.mjs; test/core/own-validator.test.ts checks the committed file is current.
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';

const standaloneCode = standalone.default ?? standalone;

/** Options every own validator is compiled with beside its site's (as OWN_SCHEMA at run time). */
const FIXED = { validateSchema: false, code: { source: true, esm: true } };

/** Ajv's way of writing a schema into code (its `stringify`). */
const asCode = (value) => JSON.stringify(value).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The names of the constants declaring `value` in standalone code (`const schema12 = {…};`). */
function constantsOf(code, value) {
  const names = [];
  const text = ` = ${asCode(value)};`;
  for (let at = code.indexOf(text); at !== -1; at = code.indexOf(text, at + 1)) {
    const name = /const (schema\d+)$/.exec(code.slice(Math.max(0, at - 40), at))?.[1];
    if (name) names.push(name);
  }
  return names;
}

/**
 * Standalone code declares a `$ref`'d definition as a copy of its own; here it becomes the root
 * schema's object, and the validator's `schema` is the root, as when Ajv compiles at run time:
 * error wording knows a `$ref` branch's errors by their schema objects (io/schema-problems.ts).
 * Returns the code and the constant naming the root.
 */
function sharedSchemaObjects(code, key, schema) {
  const [root] = constantsOf(code, schema);
  if (!root) throw new Error(`own-validators: the root schema of ${key} is not in its standalone code`);
  let out = code;
  for (const [name, definition] of Object.entries(schema.definitions ?? {})) {
    for (const id of constantsOf(out, definition)) {
      out = out.replace(`const ${id} = ${asCode(definition)};`, `const ${id} = ${root}.definitions[${JSON.stringify(name)}];`);
    }
  }
  return { code: out, root };
}

/**
 * `code` with each schema constant (`const schema12 = {…};`, JSON as Ajv writes it) made by
 * `JSON.parse` of its text instead: V8 compiles a large object literal into code that builds it,
 * and parses JSON far faster than that code compiles. A first start (no code cache, as in CI and
 * on every runner) of `check --from` on Node 20: 629 → 603 ms of CPU, paired. A literal ends at
 * the first `}` followed by `;` where the text from its `{` is JSON (inside a string, it is not).
 */
function schemasAsJsonParse(code) {
  const start = /const schema\d+ = \{/g;
  let out = '';
  let done = 0;
  for (let m = start.exec(code); m; m = start.exec(code)) {
    const from = m.index + m[0].length - 1;
    let end = code.indexOf('};', from);
    while (end !== -1 && !isJson(code.slice(from, end + 1))) end = code.indexOf('};', end + 1);
    if (end === -1) throw new Error(`own-validators: the schema constant at ${m.index} does not end in JSON`);
    out += `${code.slice(done, from)}JSON.parse(${JSON.stringify(code.slice(from, end + 1))})`;
    done = end + 1;
    start.lastIndex = done;
  }
  return out + code.slice(done);
}

const isJson = (text) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/**
 * Every validator of `entries` ([name, { schema, options }] pairs) as Ajv's standalone code, by
 * its key (`keyOf`: ownSchemaKey, the options and schema as JSON text). Each validator has a
 * short id (`v0`, `v1`, …, in entry order). Schemas compiled with the same options share one Ajv
 * instance (and its shared functions): a group, whose `code` is a function body returning its
 * validators by id. Ajv's runtime helpers, which standalone code `require`s, are named once for
 * all groups (`helpers`: module -> name).
 */
export function ownValidatorGroups(entries, keyOf) {
  const groups = new Map();
  const ids = new Map();
  for (const [name, own] of entries) {
    const key = keyOf(own);
    if (ids.has(key)) continue;
    const id = `v${ids.size}`;
    ids.set(key, id);
    const options = JSON.stringify(own.options);
    if (!groups.has(options)) groups.set(options, []);
    groups.get(options).push({ name, key: id, schema: own.schema });
  }
  const helpers = new Map();
  const helper = (spec) => {
    if (!helpers.has(spec)) helpers.set(spec, `runtime${helpers.size}`);
    return helpers.get(spec);
  };
  const made = [];
  for (const [options, list] of groups) {
    const ajv = new Ajv({ ...JSON.parse(options), ...FIXED });
    for (const { key, schema } of list) ajv.addSchema(schema, key);
    const exported = [];
    let code = standaloneCode(ajv, Object.fromEntries(list.map(({ key }) => [key, key])))
      .replace(/^"use strict";/, '')
      .replace(/require\("([^"]+)"\)/g, (_, spec) => helper(spec))
      .replace(/export const (\w+) = (\w+);/g, (_, key, fn) => {
        exported.push([key, fn]);
        return '';
      });
    const roots = new Map();
    for (const { key, schema } of list) {
      const shared = sharedSchemaObjects(code, key, schema);
      code = shared.code;
      roots.set(key, shared.root);
    }
    code = schemasAsJsonParse(code);
    // After every constant is declared: the root schemas are `const`s.
    code += `return { ${exported.map(([key, fn]) => `${key}: withSchema(${roots.get(key)}, ${fn})`).join(', ')} };`;
    const names = list.map(({ key, name }) => `//   ${key}: ${name}`).join('\n');
    made.push({ comment: `// Options ${options}:\n${names}`, names: list.map(({ name }) => name), keys: exported.map(([key]) => key), code });
  }
  return { groups: made, helpers, ids };
}

/** The module's text around its groups: `scopes`, each group's `lazily(…)` statement, in order. */
function moduleText({ helpers, ids }, scopes) {
  // A helper module is CommonJS with `exports.default`: Node hands over module.exports, some
  // loaders (vitest's interop) the function itself; `.default` is read from either.
  const imports = [...helpers].flatMap(([spec, id]) => [
    `import ${id}Module from ${JSON.stringify(spec.endsWith('.js') ? spec : `${spec}.js`)};`,
    `const ${id} = typeof ${id}Module === 'function' ? { default: ${id}Module } : ${id}Module;`,
  ]);
  return [
    '// Written by scripts/build.mjs from src/library/own-schemas.ts (Ajv standalone code): do not edit.',
    ...imports,
    'const out = {};',
    '/** The validator with its root schema (`validate.schema`), as Ajv compiling at run time gives it. */',
    'const withSchema = (schema, validate) => Object.assign(validate, { schema });',
    '/**',
    ' * Each group of validators is made when one of its keys is first read: a command pays for the',
    ' * groups it validates with (`validate` reads no API answer, `check` no fix shape), not all five.',
    ' */',
    'const lazily = (keys, make) => {',
    '  let made;',
    '  for (const key of keys) Object.defineProperty(out, key, { enumerable: true, get: () => (made ??= make())[key] });',
    '};',
    ...scopes,
    '/** Each validator\'s id by its key: its options and schema as JSON text (ownSchemaKey). */',
    `const KEYS = new Map([\n${[...ids].map(([key, id]) => `  [${JSON.stringify(key)}, ${JSON.stringify(id)}],`).join('\n')}\n]);`,
    '/** The validator compiled from the schema and options `key` names, if the build compiled it. */',
    'export const precompiledValidator = (key) => {',
    '  const id = KEYS.get(key);',
    '  return id === undefined ? undefined : out[id];',
    '};',
    '',
  ].join('\n');
}

/**
 * The module's text (src/core/own-validators.generated.js, for the library, the Action and the
 * tests) from ownValidatorGroups's `made`: each group's code scoped in a function of its own, run
 * at its first use.
 */
export function ownValidatorsModule(made) {
  return moduleText(made, made.groups.map(({ comment, keys, code }) => `${comment}\nlazily(${JSON.stringify(keys)}, () => {\n${code}\n});`));
}

/**
 * The same validators (ownValidatorGroups's `made`) for the CLI's chunks (scripts/build.mjs):
 * each group's code a CommonJS module of its own (`chunks`: file name -> text, `exports.make(helpers, withSchema)`), required
 * at its first use, and `module`, the module that requires them (each `./<file>` a chunk the
 * loader serves). V8 scans all of a file's text as it compiles it: `check` never reads the fix
 * shapes' code, `validate` neither theirs nor the answers'. A group's file is named by the first
 * word of its first validator's name (`validators-answer.cjs`).
 */
export function ownValidatorsChunks(made) {
  const helperNames = [...made.helpers.values()].join(', ');
  const chunks = new Map();
  const scopes = made.groups.map(({ comment, names, keys, code }) => {
    const word = names[0].split(/\W/)[0].toLowerCase();
    const file = chunks.has(`validators-${word}.cjs`) ? `validators-${word}-${chunks.size}.cjs` : `validators-${word}.cjs`;
    // A parenthesised function is compiled as the chunk loads (V8's heuristic for a function run
    // at once), not skimmed then and read again at its call: make runs as soon as its chunk loads.
    chunks.set(file, `${comment}\nexports.make = (function ({ ${helperNames} }, withSchema) {\n${code}\n});\n`);
    return `${comment}\nlazily(${JSON.stringify(keys)}, () => require(${JSON.stringify(`./${file}`)}).make({ ${helperNames} }, withSchema));`;
  });
  return { module: moduleText(made, scopes), chunks };
}
