// The one base of every published JSON Schema's `$id` (schema/*.schema.json): identifiers, so
// editors and validators can tell the files apart; not addresses to fetch.
export const SCHEMA_ID_BASE = 'https://steward.dev/schema/';

export const schemaId = (name: string) => `${SCHEMA_ID_BASE}${name}.schema.json`;
