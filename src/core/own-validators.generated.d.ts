// The validators scripts/build.mjs compiles from library/own-schemas.ts (Ajv standalone code),
// by ownSchemaKey: see core/own-validator.ts.
import type { ValidateFunction } from 'ajv';

export declare const PRECOMPILED: Readonly<Record<string, ValidateFunction>>;
