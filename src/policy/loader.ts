// Reads policy files (files or folders; "builtin" = the shipped pack) and validates them against
// the policy schema, collecting every problem with file:line:column: plain definitions, each
// expression's position kept for the one compiler (compile.ts) to point its problems at.
import { existsSync, readdirSync, readFileSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject } from 'ajv';
import { isMap, type Node } from 'yaml';
import { addProblems, InputError } from '../core/problem.js';
import { PACKAGE_NAME } from '../core/package-name.js';
import { readInputFileSync } from '../io/input-file.js';
import { DEFAULT_ENFORCEMENT, type Enforcement, ENFORCEMENTS, type SourceLocation } from '../core/model.js';
import { type ErrorPlace, type SchemaWording, schemaProblems } from '../io/schema-problems.js';
import {
  keyNodeAt,
  locationOf,
  nodeAt,
  parseYamlSource,
  yamlData,
  pathLabel,
  valuePositions,
  type YamlPath,
  type YamlSource,
} from '../io/yaml-source.js';
import type { ExpressionOrigin } from './cel.js';
import { jsonType } from './compile.js';
import { builtinPolicies } from './builtin-pack.js';
import { sortProblems } from './problems.js';
import { type KindRegistry, policyValidation } from './schema.js';
import { didYouMean } from './suggest.js';
import { EXPRESSION_FIELDS, type PolicyDefinition, type PolicyTest } from './types.js';
import type { InputProblem } from '../core/problem.js';
import { compareText } from '../core/order.js';
import { validatorsBy } from '../core/own-validator.js';

export interface LoadOptions {
  kinds: KindRegistry;
  /** Paths resolve against it and are printed relative to it (default: process.cwd()). */
  cwd?: string;
}

/** The path-list word that means the shipped pack. */
export const BUILTIN = 'builtin';

/** The policies of `paths` and every problem of their files (sorted), without failing. */
export async function readPolicies(paths: readonly string[], options: LoadOptions): Promise<{ policies: PolicyDefinition[]; problems: InputProblem[] }> {
  const cwd = options.cwd ?? process.cwd();
  const problems: InputProblem[] = [];
  const policies: PolicyDefinition[] = [];
  const seen = new Map<string, SourceLocation>();
  const files = policyFiles(paths, cwd, problems);
  // Named as `builtin` or by its path (the config resolves the word to the folder). Without a
  // package folder to find (steward bundled into another program), only the named paths exist
  // (`builtin` itself was refused by policyFiles).
  const builtinDir = packageFolderPolicies();
  for (const { file, pathIndex } of files) {
    const display = path.relative(cwd, file).split(path.sep).join('/');
    let text: string;
    try {
      text = readInputFileSync(file, display, 'policy file');
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      addProblems(problems, e.problems);
      continue;
    }
    // A shipped file as the build parsed it, when it is the file the build parsed.
    const parsed = builtinDir !== null && path.dirname(file) === builtinDir ? builtinPolicies(path.dirname(builtinDir), path.basename(file), text, display, options.kinds) : undefined;
    const result = parsed ? { policies: parsed, problems: parsed.flatMap((p) => duplicateId(p, seen) ?? []) } : parsePolicyText(text, display, options, seen);
    for (const policy of result.policies) policies.push({ ...policy, pathIndex });
    addProblems(problems, result.problems);
  }
  return { policies, problems: sortProblems(problems) };
}

/** The policies of `paths`, parsed and validated (InputError with every problem otherwise). */
export async function loadPolicies(paths: readonly string[], options: LoadOptions): Promise<PolicyDefinition[]> {
  const { policies, problems } = await readPolicies(paths, options);
  if (problems.length > 0) throw new InputError(problems);
  return policies;
}


/**
 * Every .yaml/.yml file the paths name (folders recursively, sorted), without repeats, each with
 * the index of the first path that named it.
 */
function policyFiles(paths: readonly string[], cwd: string, problems: InputProblem[]): { file: string; pathIndex: number }[] {
  const files = new Map<string, number>();
  const visit = (p: string, named: string, pathIndex: number): void => {
    let info: Stats | null;
    try {
      info = statSync(p);
    } catch {
      info = null;
    }
    if (!info) {
      problems.push({ file: named, line: 0, column: 0, message: 'no such policy file or folder' });
    } else if (info.isDirectory()) {
      const entries = readdirSync(p, { withFileTypes: true }).sort((a, b) => compareText(a.name, b.name));
      for (const e of entries) {
        if (e.isDirectory() || /\.ya?ml$/.test(e.name)) visit(path.join(p, e.name), named, pathIndex);
      }
    } else if (!files.has(p)) {
      files.set(p, pathIndex);
    }
  };
  for (const [i, p] of paths.entries()) visit(p === BUILTIN ? builtinPolicyDir() : path.resolve(cwd, p), p, i);
  return [...files].map(([file, index]) => ({ file, pathIndex: index }));
}

/** The shipped `policies/` folder: found from this module's place, in src/ and in a bundled dist/. */
export function builtinPolicyDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === PACKAGE_NAME) {
      return path.join(dir, 'policies');
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the steward package folder holding the built-in policies');
    dir = parent;
  }
}


/** The shipped `policies/` folder, or null when no steward package folder holds this module. */
function packageFolderPolicies(): string | null {
  try {
    return builtinPolicyDir();
  } catch {
    return null;
  }
}

const validatorFor = validatorsBy(policyValidation);

/** One file's text → its policies and problems. `seen` carries ids across files (duplicates). */
export function parsePolicyText(
  text: string,
  file: string,
  options: { kinds: KindRegistry },
  seen: Map<string, SourceLocation> = new Map(),
): { policies: PolicyDefinition[]; problems: InputProblem[] } {
  const src = parseYamlSource(text, file, 'YAML syntax error');
  const { data, problems: unread } = yamlData(src);
  if (unread.length > 0) return { policies: [], problems: unread };
  const validate = validatorFor(options.kinds);
  const problems: InputProblem[] = validate(data) ? [] : schemaProblems(src, validate.errors, policyWording(data, options.kinds));
  const list = (data as { policies?: unknown } | null)?.policies;
  const policies: PolicyDefinition[] = [];
  if (!Array.isArray(list)) return { policies, problems };
  list.forEach((raw, i) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return;
    const policy = buildDefinition(raw as Record<string, unknown>, ['policies', i], src, problems);
    for (const fixName of Object.keys(policy.fix ?? {})) {
      if (options.kinds[policy.resource]?.fixes?.[fixName]?.perItem && policy.each === undefined) {
        const node = keyNodeAt(src, ['policies', i, 'fix', fixName]);
        problems.push({ ...locationOf(src, node), message: `fix '${fixName}' applies to an item: the policy needs \`each\`` });
      }
    }
    const duplicate = duplicateId(policy, seen);
    if (duplicate) problems.push(duplicate);
    policies.push(policy);
  });
  return { policies, problems: sortProblems(problems) };
}

/** A policy's id against those of the files read before: a second one is a problem at its id. */
export function duplicateId(policy: PolicyDefinition, seen: Map<string, SourceLocation>): InputProblem | null {
  if (typeof policy.id !== 'string' || policy.id === '') return null;
  const at = policy.fieldLocations.id ?? policy.location;
  const first = seen.get(policy.id);
  if (!first) {
    seen.set(policy.id, at);
    return null;
  }
  return { ...at, message: `duplicate policy id '${policy.id}' (first defined at ${first.file}:${first.line}:${first.column})` };
}

/** Where an expression is, so its compile errors point at their column in the file. */
function originOf(src: YamlSource, node: Node | null): ExpressionOrigin {
  const at = valuePositions(src, node);
  return at ? { ...locationOf(src, node), at } : locationOf(src, node);
}

/** The definition with defaults filled in, and where each expression stands. */
function buildDefinition(
  raw: Record<string, unknown>,
  at: YamlPath,
  src: YamlSource,
  problems: InputProblem[],
): PolicyDefinition {
  const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
  const params = isPlainObject(raw.params) ? raw.params : {};
  const paramNames = Object.keys(params);
  const fieldLocations: Partial<Record<string, SourceLocation>> = {};
  const policyNode = nodeAt(src, at);
  if (isMap(policyNode)) {
    for (const pair of policyNode.items) {
      const key = String((pair.key as { value?: unknown } | null)?.value);
      fieldLocations[key] = locationOf(src, (pair.value as Node | null) ?? (pair.key as Node));
    }
  }

  const expressionOrigins: PolicyDefinition['expressionOrigins'] = {};
  for (const field of EXPRESSION_FIELDS) {
    if (typeof raw[field] === 'string') expressionOrigins[field] = originOf(src, nodeAt(src, [...at, field]));
  }

  const tests: PolicyTest[] = [];
  const testNames = new Map<string, SourceLocation>();
  if (Array.isArray(raw.tests)) {
    raw.tests.forEach((t, j) => {
      if (!isPlainObject(t)) return;
      const testAt = [...at, 'tests', j];
      if (typeof t.name === 'string') {
        const first = testNames.get(t.name);
        const here = locationOf(src, nodeAt(src, [...testAt, 'name']));
        if (first) problems.push({ ...here, message: `duplicate test name '${t.name}' in this policy (first at line ${first.line})` });
        else testNames.set(t.name, here);
      }
      const testParams = isPlainObject(t.params) ? t.params : undefined;
      for (const [key, value] of Object.entries(testParams ?? {})) {
        if (!paramNames.includes(key)) {
          const node = keyNodeAt(src, [...testAt, 'params', key]);
          const hint = didYouMean(key, paramNames) || ` (declared: ${paramNames.join(', ') || 'none'})`;
          problems.push({ ...locationOf(src, node), message: `test sets undeclared parameter '${key}'${hint}` });
        } else if (jsonType(params[key]) !== 'null' && jsonType(value) !== jsonType(params[key])) {
          // The same rule as the config's params: a value has its default's JSON type.
          const node = nodeAt(src, [...testAt, 'params', key]);
          problems.push({ ...locationOf(src, node), message: `test params.${key}: must be a ${jsonType(params[key])} like its default` });
        }
      }
      tests.push({
        name: str(t.name),
        resource: isPlainObject(t.resource) ? t.resource : {},
        ...(testParams ? { params: testParams } : {}),
        violations: typeof t.violations === 'number' ? t.violations : 0,
        location: locationOf(src, nodeAt(src, testAt)),
      });
    });
  }

  return {
    id: str(raw.id),
    title: str(raw.title),
    description: str(raw.description),
    severity: str(raw.severity, 'medium') as PolicyDefinition['severity'],
    resource: str(raw.resource),
    ...(typeof raw.each === 'string' ? { each: raw.each } : {}),
    ...(typeof raw.when === 'string' ? { when: raw.when } : {}),
    assert: str(raw.assert, 'true'),
    message: str(raw.message, str(raw.title)),
    params,
    ...(isPlainObject(raw.fix) ? { fix: raw.fix } : {}),
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [],
    enforcement: (ENFORCEMENTS as readonly unknown[]).includes(raw.enforcement) ? (raw.enforcement as Enforcement) : DEFAULT_ENFORCEMENT,
    controls: isPlainObject(raw.controls) ? (raw.controls as Record<string, string[]>) : {},
    tests,
    location: locationOf(src, policyNode),
    fieldLocations,
    expressionOrigins,
  };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Policy files word problems as `<field>: <what is wrong>`, the field named inside its policy
 * (`tests[0].violations`), and explain unknown fix and resource kinds with what is allowed.
 */
function policyWording(data: unknown, kinds: KindRegistry): SchemaWording {
  const inPolicy = (path: YamlPath) => path[0] === 'policies' && typeof path[1] === 'number';
  return {
    separator: ': ',
    label: (path) => pathLabel(inPolicy(path) && path.length > 2 ? path.slice(2) : path),
    describe: (err: ErrorObject, { path, label, subject }: ErrorPlace) => {
      const params = err.params as Record<string, unknown>;
      switch (err.keyword) {
        case 'additionalProperties': {
          const key = String(params.additionalProperty);
          if (inPolicy(path) && path.length === 3 && path[2] === 'fix') {
            const kind = String((data as { policies: { resource?: unknown }[] }).policies[path[1] as number]?.resource);
            const allowed = Object.keys(kinds[kind]?.fixes ?? {});
            const hint = allowed.length ? `allowed: ${allowed.join(', ')}` : 'this kind has no fixes';
            return `unknown fix kind '${key}' for resource kind '${kind}' (${hint})`;
          }
          const known = Object.keys((err.parentSchema as { properties?: object } | undefined)?.properties ?? {});
          const hint = didYouMean(key, known) || (known.length ? ` (allowed: ${known.join(', ')})` : '');
          return `${subject}unknown field '${key}'${hint}`;
        }
        case 'required':
          return `${subject}missing required field '${String(params.missingProperty)}'`;
        case 'enum':
          if (inPolicy(path) && label === 'resource') {
            return `unknown resource kind ${JSON.stringify(err.data)} (known: ${(params.allowedValues as unknown[]).join(', ')})`;
          }
          return undefined;
        case 'pattern':
          if (inPolicy(path) && label === 'id') return `id: must be kebab-case (a-z, 0-9, single hyphens), got ${JSON.stringify(err.data)}`;
          return undefined;
        default:
          return undefined;
      }
    },
  };
}
