// Validators of steward's own JSON Schemas (config, policies, waivers, manifests, plans, fix
// values, API answers). The build compiles each one ahead of time into Ajv's standalone code
// (own-validators.generated.js, written by scripts/build.mjs from library/own-schemas.ts), so a
// command starts without compiling a schema: that cost ~55 ms of every `validate` and `check`.
// A schema the build did not see (a plugin's kind widens the policy schema) or one changed since
// the file was written is compiled here, so a validator always matches its schema: the key is
// the schema and its options, never a name.
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import { ajvClass } from './ajv-class.js';
import { precompiledValidator } from './own-validators.generated.js';

/** The Ajv options a site chooses (the rest are OWN_SCHEMA, the same for every site). */
export type OwnSchemaOptions = Pick<Options, 'allErrors' | 'verbose' | 'strict' | 'inlineRefs' | 'allowUnionTypes'>;

/** A schema and the options it is compiled with: what one validator is made of. */
export interface OwnSchema {
  schema: Record<string, unknown>;
  options: OwnSchemaOptions;
}

/**
 * Ajv options of every validator compiled from steward's own schemas. They are not checked
 * against the draft-07 meta-schema at run time (test/schema/published.test.ts checks each one),
 * which spared compiling the meta-schema once per Ajv instance; and Ajv's code optimisation
 * passes are off: they cost ~50 ms of `validate`'s start-up when compiled at run time, and no
 * measurable time in validating 100,000 schedules (BENCHMARKS.md §8, §11).
 */
export const OWN_SCHEMA = { validateSchema: false, code: { optimize: false } } as const;

const keys = new WeakMap<OwnSchema, string>();

/**
 * The precompiled validator's key: the options and the schema as JSON text (once per object).
 * The text itself, not a digest of it: two schemas share a key only when they are the same, and
 * no hash module loads for it (~12 ms of a start on Node 24: core/digest.ts).
 */
export function ownSchemaKey(own: OwnSchema): string {
  let key = keys.get(own);
  if (key === undefined) {
    key = JSON.stringify([own.options, own.schema]);
    keys.set(own, key);
  }
  return key;
}

/** The validator of `own`: the build's, or compiled now when the build did not see this schema. */
export function ownValidator(own: OwnSchema): ValidateFunction {
  // A fresh instance each time: two registries' policy schemas share one `$id`.
  return precompiledValidator(ownSchemaKey(own)) ?? new (ajvClass())({ ...own.options, ...OWN_SCHEMA }).compile(own.schema);
}

/**
 * The validator of each key's schema (a kind registry's policies, an answer's schema, a fix kind),
 * made at its first use and kept while the key lives: looked up or compiled once per key.
 */
export function validatorsBy<K extends object>(ownOf: (key: K) => OwnSchema): (key: K) => ValidateFunction {
  const made = new WeakMap<K, ValidateFunction>();
  return (key) => {
    let validate = made.get(key);
    if (!validate) {
      validate = ownValidator(ownOf(key));
      made.set(key, validate);
    }
    return validate;
  };
}

/** Ajv's `errorsText`, without an Ajv instance: `value/0 must be string, value must …`. */
export function errorsText(errors: readonly ErrorObject[] | null | undefined, dataVar = 'data'): string {
  if (!errors || errors.length === 0) return 'No errors';
  return errors.map((e) => `${dataVar}${e.instancePath} ${e.message}`).join(', ');
}
