// ajv validators for the report schema and the official SARIF 2.1.0 schema (test-only).
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject } from 'ajv';
import addFormatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsPlugin as { default?: unknown }).default ?? addFormatsPlugin) as (
  ajv: Ajv,
) => Ajv;

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
}

export function reportValidator(): (data: unknown) => ErrorObject[] {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
  const validate = ajv.compile(readJson('../../schema/report.schema.json'));
  return (data) => (validate(data) ? [] : (validate.errors ?? []));
}

/**
 * The official schema is draft-04 (`id`, no `$id`); its keywords are a subset draft-07 reads the
 * same way, so it compiles as draft-07 once `$schema` is dropped and `id` renamed `$id`.
 */
export function sarifValidator(): (data: unknown) => ErrorObject[] {
  const schema = readJson(
    '../../node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json',
  );
  delete schema.$schema;
  schema.$id = schema.id;
  delete schema.id;
  // unicodeRegExp off: the schema's `language` pattern has a stray `]` that `u` mode rejects.
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false, unicodeRegExp: false }));
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? [] : (validate.errors ?? []));
}
