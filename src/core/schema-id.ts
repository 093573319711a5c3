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
