// ajv validators for the report schema and the official SARIF 2.1.0 schema (test-only).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsPlugin as { default?: unknown }).default ?? addFormatsPlugin) as <T extends Ajv>(ajv: T) => T;

function readJson(relative: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
}

export function reportValidator(): (data: unknown) => ErrorObject[] {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: true }));
  const validate = ajv.compile(readJson('../../schema/report.schema.json'));
  return (data) => (validate(data) ? [] : (validate.errors ?? []));
}

let sarif: ((data: unknown) => ErrorObject[]) | undefined;

/**
 * The official SARIF 2.1.0 schema (JSON Schema 2020-12), read where the workplace keeps it
 * (../shared/schemas) rather than copied here. `strict: false`: the schema itself names required
 * properties its `anyOf` branches do not declare, which Ajv's strict mode refuses to compile.
 */
export function sarifValidator(): (data: unknown) => ErrorObject[] {
  sarif ??= compiledSarifValidator();
  return sarif;
}

// Compiled once per process (vitest shares one between files): the schema is 80 KB, and sixteen
// tests ask for it.
function compiledSarifValidator(): (data: unknown) => ErrorObject[] {
  const schema = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../shared/schemas/sarif-2.1.0.schema.json'), 'utf8')) as Record<string, unknown>;
  const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  const validate = ajv.compile(schema);
  return (data) => (validate(data) ? [] : (validate.errors ?? []));
}
