// steward.yaml against CONFIG_SCHEMA, each ajv error turned into one readable InputProblem at
// the offending key or value. A `token` key anywhere is refused first, with where to put it.
import { Ajv, type ErrorObject } from 'ajv';
import { isScalar, visit } from 'yaml';
import type { InputProblem } from '../policy/types.js';
import { CONFIG_SCHEMA } from './schema.js';
import { locationOf, problemAt, type YamlSource } from './yaml-source.js';

const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
const validateConfig = ajv.compile(CONFIG_SCHEMA);

/** Keys that look like credentials: `token`, `workflowToken`, `apiToken`… */
const TOKEN_KEY = /token$/i;

export const TOKEN_IN_FILE_MESSAGE =
  'tokens never go in steward.yaml (it is committed): set STEWARD_TOKEN (and STEWARD_WORKFLOW_TOKEN) in the environment';

function tokenProblems(src: YamlSource): InputProblem[] {
  const problems: InputProblem[] = [];
  visit(src.doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && typeof pair.key.value === 'string' && TOKEN_KEY.test(pair.key.value)) {
        problems.push({ ...locationOf(src, pair.key), message: `"${pair.key.value}": ${TOKEN_IN_FILE_MESSAGE}` });
      }
    },
  });
  return problems;
}

function pathOf(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function label(path: (string | number)[]): string {
  if (path.length === 0) return 'the config';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function messageOf(e: ErrorObject, path: (string | number)[]): string {
  const where = label(path);
  switch (e.keyword) {
    case 'additionalProperties': {
      const allowed = Object.keys((e.parentSchema as { properties?: object })?.properties ?? {});
      const key = String(e.params.additionalProperty);
      const inside = path.length ? ` in ${where}` : '';
      return `unknown key "${key}"${inside}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    case 'enum':
      return `${where} must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`;
    case 'anyOf':
      return `${where} must be ${(e.parentSchema as { description?: string })?.description ?? 'a valid value'}`;
    case 'required':
      return `${where} needs "${e.params.missingProperty}"`;
    case 'pattern':
      return `${where} must be an http(s):// URL`;
    default:
      return `${where} ${e.message}`;
  }
}

/** Picks, among ajv's errors, the ones worth showing (one per real mistake). */
function selectErrors(errors: ErrorObject[]): ErrorObject[] {
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const selected: ErrorObject[] = [];
  const inside = (e: ErrorObject, a: ErrorObject) => e !== a && e.schemaPath.startsWith(`${a.schemaPath}/`);
  for (const e of errors) {
    if (e.keyword === 'anyOf' || anyOfs.some((a) => inside(e, a))) continue;
    selected.push(e);
  }
  for (const a of anyOfs) {
    const branchErrors = errors.filter((e) => inside(e, a) && e.keyword !== 'anyOf');
    // The value had the right shape for one branch but its contents are wrong: point inside.
    const deeper = branchErrors.filter((e) => e.instancePath.length > a.instancePath.length);
    selected.push(...(deeper.length > 0 ? deeper : [a]));
  }
  return selected;
}

/** Problems of the file's content (empty when valid). */
export function validateConfigSource(src: YamlSource, data: unknown): InputProblem[] {
  const tokens = tokenProblems(src);
  if (validateConfig(data)) return tokens;
  const schemaProblems = selectErrors(validateConfig.errors ?? [])
    .filter((e) => !(e.keyword === 'additionalProperties' && TOKEN_KEY.test(String(e.params.additionalProperty))))
    .map((e) => {
      const path = pathOf(e.instancePath);
      if (e.keyword === 'additionalProperties') {
        return problemAt(src, [...path, String(e.params.additionalProperty)], messageOf(e, path), true);
      }
      return problemAt(src, path, messageOf(e, path));
    });
  const seen = new Set<string>();
  return [...tokens, ...schemaProblems]
    .filter((p) => {
      const k = `${p.line}:${p.column}:${p.message}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
}
