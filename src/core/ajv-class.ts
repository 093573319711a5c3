// Ajv's compiler, for a schema the build did not compile (own-validator.ts). The CLI's and the
// Action's bundles take it at its first use instead (scripts/on-use.mjs: ajvOnUse): a command
// whose schemas were all compiled ahead never initialises Ajv's core (~12 ms of `validate` on
// Node 24). The library and the tests import it as written here.
import { Ajv } from 'ajv';

/** Ajv's class. */
export const ajvClass = (): typeof Ajv => Ajv;
