// API drift: an answer checked against its schema (schemas.ts), the first mismatch named by the
// field it sits at and what was there (`[3].schedule.timezone: expected string, got null`). A
// live answer (http.ts) and a recorded one (snapshot-replay.ts) are checked alike.
import type { ErrorObject } from 'ajv';
import { type OwnSchema, validatorsBy } from '../core/own-validator.js';
import type { Schema } from './schemas.js';

/** An answer's schema and how it is compiled: the first mismatch is enough to say what drifted. */
// Stryker disable next-line ObjectLiteral,BooleanLiteral: the same verdicts under Ajv's defaults (its schemas strict too; every error found only costs time)
export const responseValidation = (schema: Schema): OwnSchema => ({ schema: schema as Record<string, unknown>, options: { allErrors: false, allowUnionTypes: true, strict: true } });

const validatorFor = validatorsBy(responseValidation);

export interface DriftProblem {
  /** e.g. `[3].schedule.timezone`, or `(body)` for the whole body. */
  field: string;
  /** e.g. `expected string, got null`. */
  problem: string;
}

/** Undefined when the body matches the schema (an operation's `response` in the table). */
export function checkResponse(schema: Schema, body: unknown): DriftProblem | undefined {
  const validate = validatorFor(schema);
  if (validate(body)) return undefined;
  const error = (validate.errors ?? [])[0];
  // Stryker disable next-line all: Ajv says why whenever a validator fails; a failure without a reason is still drift
  if (!error) return { field: '(body)', problem: 'does not match the documented shape' };
  return describeAjvError(error, body);
}

/** Ajv's first error said as a field and its problem (a missing field, a type, a word outside a vocabulary). */
function describeAjvError(error: ErrorObject, body: unknown): DriftProblem {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty: string }).missingProperty);
    return { field: formatField([...segments, missing]), problem: 'missing' };
  }
  if (error.keyword === 'type') {
    const expected = [(error.params as { type: string | string[] }).type].flat().join(' or ');
    return { field: formatField(segments), problem: `expected ${expected}, got ${typeName(valueAt(body, segments))}` };
  }
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    return { field: formatField([...segments, extra]), problem: 'not a field of the documented shape: what it holds is read by no policy' };
  }
  if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v));
    const got = JSON.stringify(valueAt(body, segments));
    return { field: formatField(segments), problem: `expected one of ${allowed.join(', ')}, got ${got}` };
  }
  // Stryker disable next-line StringLiteral: Ajv gives every error a message
  return { field: formatField(segments), problem: error.message ?? 'does not match the documented shape' };
}

/** ['3', 'schedule', 'timezone'] → `[3].schedule.timezone`. */
export function formatField(segments: readonly string[]): string {
  if (segments.length === 0) return '(body)';
  let out = '';
  for (const s of segments) {
    if (/^\d+$/.test(s)) out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(s)) out += out === '' ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** The value at `segments` of `body` (undefined where the path leaves it). */
function valueAt(body: unknown, segments: readonly string[]): unknown {
  let value = body;
  for (const s of segments) {
    // Stryker disable next-line all: a type or enum error's path is in the body, through objects alone
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[s];
  }
  return value;
}

/** A JSON value's type as a drift message says it (`integer` for a whole number). */
function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
