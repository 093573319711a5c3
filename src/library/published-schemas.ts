// The JSON Schemas steward publishes under schema/ that are computed rather than written: the
// policy schema from the resource-kind registry (its `resource` enum and fix shapes), and the
// fix plan's. scripts/build.mjs writes each from here, like the hand-written ones.
import { PLAN_SCHEMA } from '../fix/index.js';
import { buildPolicySchema } from '../policy/schema.js';
import { RESOURCE_KINDS } from '../resources/index.js';

export const POLICY_SCHEMA = buildPolicySchema(RESOURCE_KINDS);
export { PLAN_SCHEMA };
