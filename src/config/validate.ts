// steward.yaml against CONFIG_SCHEMA, each ajv error turned into one readable InputProblem at
// the offending key or value. A `token` key anywhere is refused first, with where to put it.
import type { ValidateFunction } from 'ajv';
import { isScalar, visit } from 'yaml';
import type { InputProblem } from '../core/problem.js';
import { type SchemaWording, schemaProblems } from '../io/schema-problems.js';
import { locationOf, type YamlSource } from '../io/yaml-source.js';
import { CONFIG_SCHEMA } from './schema.js';
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
 * The config schema's patterns: the instance URLs', and `env:NAME` where a value is a secret (a
 * notify webhook's URL and key), whose value is never echoed.
 */
const CONFIG_WORDING: SchemaWording = {
  describe: (e, { subject }) => {
    if (e.keyword !== 'pattern') return undefined;
    if (e.params.pattern === ENV_REF_PATTERN) return `${subject}must be env:NAME, the environment variable that holds it (a webhook URL or key is a secret: never in this file)`;
    return `${subject}must be an http(s):// URL`;
  },
};

/** Problems of the file's content (empty when valid), in file order. */
export function validateConfigSource(src: YamlSource, data: unknown): InputProblem[] {
  const tokens = tokenProblems(src);
  const validateConfig = configValidator();
  if (validateConfig(data)) return tokens;
  // A token key is already refused above, with where tokens go instead.
  const errors = (validateConfig.errors ?? []).filter(
    (e) => !(e.keyword === 'additionalProperties' && TOKEN_KEY.test(String(e.params.additionalProperty))),
  );
  // The definitions the errors' schema objects belong to: the validator's own (a precompiled one holds its copy).
  const definitions = (validateConfig.schema as { definitions?: Record<string, unknown> } | undefined)?.definitions;
  return [...tokens, ...schemaProblems(src, errors, { ...CONFIG_WORDING, definitions })].sort((a, b) => a.line - b.line || a.column - b.column);
}
