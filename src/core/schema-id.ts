// The one base of every published JSON Schema's `$id` (schema/*.schema.json): identifiers, so
// editors and validators can tell the files apart; not addresses to fetch.
export const SCHEMA_ID_BASE = 'https://steward.dev/schema/';

export const schemaId = (name: string) => `${SCHEMA_ID_BASE}${name}.schema.json`;

/** A published schema's head: its `$id`, draft 7, a title, a closed object (another field is a typo); `body` gives the rest. */
export function closedSchema(name: string, title: string, body: Record<string, unknown>): Record<string, unknown> {
  return { $schema: 'http://json-schema.org/draft-07/schema#', $id: schemaId(name), title, type: 'object', additionalProperties: false, ...body };
}
