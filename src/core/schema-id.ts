// The one base of every published JSON Schema's `$id` (schema/*.schema.json): identifiers, so
// editors and validators can tell the files apart; not addresses to fetch.
export const SCHEMA_ID_BASE = 'https://steward.dev/schema/';

export const schemaId = (name: string) => `${SCHEMA_ID_BASE}${name}.schema.json`;

/** An object with these properties and no other (another field is a typo); `required` ones must be there. */
export function closedObject(required: readonly string[], properties: Record<string, unknown>, rest: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'object', additionalProperties: false, ...(required.length > 0 ? { required } : {}), ...rest, properties };
}

/** A published schema's head: its `$id`, draft 7, a title, a closed object; `body` gives the rest. */
export function closedSchema(name: string, title: string, body: Record<string, unknown>): Record<string, unknown> {
  return { $schema: 'http://json-schema.org/draft-07/schema#', $id: schemaId(name), title, type: 'object', additionalProperties: false, ...body };
}

/**
 * Ajv options of every validator compiled from steward's own schemas. They are not checked
 * against the draft-07 meta-schema at run time (test/schema/published.test.ts checks each one),
 * which spared compiling the meta-schema once per Ajv instance; and Ajv's code optimisation
 * passes are off: they cost ~50 ms of `validate`'s start-up and no measurable time in
 * validating 100,000 schedules (BENCHMARKS.md §8, §11).
 */
export const OWN_SCHEMA = { validateSchema: false, code: { optimize: false } } as const;
