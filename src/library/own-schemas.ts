// Every schema steward validates its own inputs and the API's answers with, as each site
// compiles it (core/own-validator.ts): scripts/build.mjs compiles these ahead of time into
// core/own-validators.generated.js, and test/core/own-validator.test.ts checks that file is
// up to date. A schema left out here still works: it is compiled when first used.
import { operation, OPERATION_IDS } from '../api/operations.js';
import { responseValidation } from '../api/drift.js';
import { recordedSchema } from '../api/snapshot-replay.js';
import { CONFIG_VALIDATION } from '../config/validate.js';
import type { OwnSchema } from '../core/own-validator.js';
import { WAIVERS_VALIDATION } from '../engine/waivers.js';
import { PLAN_VALIDATION } from '../fix/render.js';
import { policyValidation } from '../policy/schema.js';
import { fixValidation, RESOURCE_KINDS } from '../resources/index.js';
import { manifestValidation } from '../resources/manifests.js';

/** The schemas by a readable name (the generated file's comments), in a stable order. */
export function ownSchemas(): [name: string, own: OwnSchema][] {
  const answers = OPERATION_IDS.flatMap((id): [string, OwnSchema][] => {
    const op = operation(id);
    const live: [string, OwnSchema][] = op.response ? [[`answer ${id}`, responseValidation(op.response)]] : [];
    // A paged read's recorded page (snapshots hold each page's items), where it has a schema of its own.
    return op.access === 'read' && op.item && recordedSchema(id) !== op.response ? [...live, [`recorded ${id}`, responseValidation(recordedSchema(id))]] : live;
  });
  const fixes = Object.values(RESOURCE_KINDS).flatMap((kind) =>
    Object.entries(kind.fixes ?? {}).map(([name, fixKind]): [string, OwnSchema] => [`fix ${kind.name}.${name}`, fixValidation(fixKind)]),
  );
  return [
    ['config', CONFIG_VALIDATION],
    ['policies', policyValidation(RESOURCE_KINDS)],
    ['waivers', WAIVERS_VALIDATION],
    ['queue manifest', manifestValidation('queue')],
    ['data-file manifest', manifestValidation('dataFile')],
    ['page-sharing manifest', manifestValidation('page')],
    ['card-sharing manifest', manifestValidation('card')],
    ['fix plan', PLAN_VALIDATION],
    ...fixes,
    ...answers,
  ];
}
