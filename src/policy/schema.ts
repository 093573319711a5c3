// The JSON Schema of a policy file (DESIGN §6). Resource kinds and their fix shapes come in as
// a parameter (the registry lives in src/resources), so `resource` is an enum of kind names
// and `fix` is checked per kind. `schema/policy.schema.json` is this output, committed for editors.
import { ENFORCEMENTS, SEVERITIES } from '../core/model.js';
import { compareText } from '../core/order.js';
import type { OwnSchema } from '../core/own-validator.js';
import { closedSchema } from '../core/schema-id.js';

/** What the schema (and the expression type checks) need to know of each resource kind. */
export type KindRegistry = Record<
  string,
  {
    description?: string;
    fixes?: Record<string, { schema: object; perItem?: boolean }>;
    /** JSON Schema of the document (`resource`): types its fields; `additionalProperties: false` = no other field. */
    documentSchema?: Record<string, unknown>;
  }
>;

export const POLICY_ID_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';

const validations = new WeakMap<KindRegistry, OwnSchema>();

/** The policy files' schema for the kinds a run knows, and how it is compiled (built once per registry). */
export function policyValidation(kinds: KindRegistry): OwnSchema {
  let own = validations.get(kinds);
  if (!own) {
    own = { schema: buildPolicySchema(kinds), options: { allErrors: true, strict: true, verbose: true } };
    validations.set(kinds, own);
  }
  return own;
}

export function buildPolicySchema(kinds: KindRegistry): Record<string, unknown> {
  const kindNames = Object.keys(kinds).sort();
  const expression = (description: string) => ({ type: 'string', minLength: 1, description });
  return closedSchema('policy', 'steward policy file', {
    required: ['policies'],
    properties: {
      policies: { type: 'array', items: { $ref: '#/definitions/policy' } },
    },
    definitions: {
      policy: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'title', 'severity', 'resource', 'assert'],
        properties: {
          id: {
            type: 'string',
            pattern: POLICY_ID_PATTERN,
            description: 'Unique, kebab-case, stable: waivers and baselines refer to it.',
          },
          title: { type: 'string', minLength: 1 },
          description: { type: 'string', description: 'Why it matters and how to fix it by hand.' },
          severity: { enum: [...SEVERITIES] },
          resource: {
            enum: kindNames,
            description: ['The resource kind the policy checks.', ...kindNames.map((n) => (kinds[n].description ? `${n}: ${kinds[n].description}` : n))].join('\n'),
          },
          each: expression('CEL list: evaluate per item, bound as `item`.'),
          when: expression('CEL bool: only selected resources (or items) are checked.'),
          assert: expression('CEL bool that must hold; false is a violation.'),
          message: {
            type: 'string',
            minLength: 1,
            description: 'Violation text; `{{ expr }}` segments are CEL rendered as text. Defaults to the title.',
          },
          params: {
            type: 'object',
            description: 'Tunables with their defaults, read as `params.name`; the config overrides them per policy id.',
          },
          fix: {
            type: 'object',
            minProperties: 1,
            maxProperties: 1,
            description: 'The fix to plan for a violation: exactly one fix kind; the kinds depend on `resource`.',
          },
          tags: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
          enforcement: {
            enum: [...ENFORCEMENTS],
            description: 'advisory: reported, never fails the gate; soft: fails it unless the run overrides it with a reason; hard (default): always fails it.',
          },
          controls: {
            type: 'object',
            description: 'Control ids per framework this policy evidences, e.g. { SOC2: [CC6.1], ISO27001: ["5.15"] }.',
            propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$' },
            additionalProperties: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 } },
          },
          tests: { type: 'array', items: { $ref: '#/definitions/test' } },
        },
        allOf: kindNames.map((name) => ({
          if: {
            type: 'object',
            required: ['resource'],
            properties: { resource: { const: name } },
          },
          // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable
          then: {
            type: 'object',
            properties: {
              fix: {
                type: 'object',
                additionalProperties: false,
                properties: Object.fromEntries(
                  Object.entries(kinds[name].fixes ?? {})
                    .sort(([a], [b]) => compareText(a, b))
                    .map(([fix, def]) => [fix, def.schema]),
                ),
              },
            },
          },
        })),
      },
      test: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'resource', 'violations'],
        properties: {
          name: { type: 'string', minLength: 1 },
          resource: { type: 'object', description: 'The resource document the expressions see as `resource`.' },
          params: { type: 'object', description: 'Parameter values for this test (override the defaults).' },
          violations: { type: 'integer', minimum: 0, description: 'Expected number of violations.' },
        },
      },
    },
  });
}

/** The schema as committed under schema/ (stable key order, 2-space indent, final newline). */
export function policySchemaText(kinds: KindRegistry): string {
  return `${JSON.stringify(buildPolicySchema(kinds), null, 2)}\n`;
}
