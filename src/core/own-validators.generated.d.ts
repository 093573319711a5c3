// The validators scripts/build.mjs compiles from library/own-schemas.ts (Ajv standalone code),
// by ownSchemaKey: see core/own-validator.ts.
import type { ValidateFunction } from 'ajv';

/** The validator compiled from the schema and options `key` names, if the build compiled it. */
export declare function precompiledValidator(key: string): ValidateFunction | undefined;
