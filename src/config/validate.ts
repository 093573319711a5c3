// steward.yaml against CONFIG_SCHEMA, each ajv error turned into one readable InputProblem at
// the offending key or value. A `token` key anywhere is refused first, with where to put it.
import type { ValidateFunction } from 'ajv';
import { isScalar, visit } from 'yaml';
import type { InputProblem } from '../core/problem.js';
import { type SchemaWording, schemaErrors, schemaProblems } from '../io/schema-problems.js';
import { locationOf, remembered, type YamlSource } from '../io/yaml-source.js';
import { CONFIG_SCHEMA, DAYS_PATTERN, DURATION_PATTERN, HEADER_NAME_PATTERN, INSTANCE_NAME_PATTERN, TOKEN_ID_PATTERN, URL_PATTERN } from './schema.js';
import { ENV_REF_PATTERN, isEnvRef } from './env-ref.js';
import { type OwnSchema, ownValidator } from '../core/own-validator.js';

/** `inlineRefs: false` compiles each shared definition once (the scope lists' shapes) instead of once per list. */
export const CONFIG_VALIDATION: OwnSchema = { schema: CONFIG_SCHEMA, options: { allErrors: true, verbose: true, strict: false, inlineRefs: false } };
let compiled: ValidateFunction | undefined;
const configValidator = () => (compiled ??= ownValidator(CONFIG_VALIDATION));

/** Keys that look like credentials: `token`, `workflowToken`, `apiToken`… */
const TOKEN_KEY = /token$/i;

export const TOKEN_IN_FILE_MESSAGE =
  'tokens never go in steward.yaml (it is committed): set STEWARD_TOKEN (and STEWARD_WORKFLOW_TOKEN) in the environment';

function tokenProblems(src: YamlSource): InputProblem[] {
  return remembered(src, 'token keys', () => tokenKeys(src));
}

function tokenKeys(src: YamlSource): InputProblem[] {
  const problems: InputProblem[] = [];
  visit(src.doc, {
    Pair(_, pair) {
      // `token: env:NAME` (an instance under `instances:`) names the variable that holds it: allowed.
      const reference = isScalar(pair.value) && typeof pair.value.value === 'string' && isEnvRef(pair.value.value);
      if (isScalar(pair.key) && typeof pair.key.value === 'string' && TOKEN_KEY.test(pair.key.value) && !reference) {
        problems.push({ ...locationOf(src, pair.key), message: `"${pair.key.value}": ${TOKEN_IN_FILE_MESSAGE}` });
      }
    },
  });
  return problems;
}

/**
 * What each of the config schema's patterns asks for, in words (`env:NAME` where a value is a
 * secret, a notify webhook's URL and key, whose value is never echoed).
 */
const PATTERN_WORDING: Record<string, string> = {
  [ENV_REF_PATTERN]: 'must be env:NAME, the environment variable that holds it (a webhook URL or key is a secret: never in this file)',
  [URL_PATTERN]: 'must be an http(s):// URL',
  [DURATION_PATTERN]: 'must be a whole number of s, m or h (e.g. 90s, 30m, 2h)',
  [TOKEN_ID_PATTERN]: 'must be a whole number: the access-token id, not the token',
  [HEADER_NAME_PATTERN]: "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)",
  [INSTANCE_NAME_PATTERN]: 'must be lower-case letters, digits, - and _ (at most 40), starting with a letter or digit',
  [DAYS_PATTERN]: 'must be a number of days, e.g. 90d',
};

const CONFIG_WORDING: SchemaWording = {
  describe: (e, { subject }) => {
    const wording = e.keyword === 'pattern' ? PATTERN_WORDING[String(e.params.pattern)] : undefined;
    return wording === undefined ? undefined : `${subject}${wording}`;
  },
};

/** Problems of the file's content (empty when valid), in file order. */
export function validateConfigSource(src: YamlSource, data: unknown): InputProblem[] {
  const tokens = tokenProblems(src);
  const found = schemaErrors(src, 'the config schema', configValidator, data);
  if (!found) return tokens;
  // A token key is already refused above, with where tokens go instead.
  const errors = found.filter((e) => !(e.keyword === 'additionalProperties' && TOKEN_KEY.test(String(e.params.additionalProperty))));
  // The definitions the errors' schema objects belong to: the validator's own (a precompiled one holds its copy).
  const definitions = (configValidator().schema as { definitions?: Record<string, unknown> } | undefined)?.definitions;
  return [...tokens, ...schemaProblems(src, errors, { ...CONFIG_WORDING, definitions })].sort((a, b) => a.line - b.line || a.column - b.column);
}
