// The registry of resource kinds. The policy schema's `resource` enum and each kind's fix
// shapes are generated from it.
import { calculatedFields } from './kinds/calculatedFields.js';
import { card } from './kinds/card.js';
import { dataFile } from './kinds/dataFile.js';
import { dataset } from './kinds/dataset.js';
import { filesetFile } from './kinds/filesetFile.js';
import { queue } from './kinds/queue.js';
import { reportSchedule } from './kinds/reportSchedule.js';
import type { FixKind, ResourceKind, Scope } from './types.js';
import { workflow } from './kinds/workflow.js';
import { user } from './kinds/user.js';
import { group } from './kinds/group.js';
import { role } from './kinds/role.js';
import { accessToken } from './kinds/accessToken.js';
import { page } from './kinds/page.js';
import { account } from './kinds/account.js';
import { errorsText, type OwnSchema, validatorsBy } from '../core/own-validator.js';

export const RESOURCE_KINDS: Record<string, ResourceKind> = {
  reportSchedule,
  dataset,
  card,
  queue,
  dataFile,
  filesetFile,
  calculatedFields,
  workflow,
  user,
  group,
  role,
  accessToken,
  page,
  account,
};

export const RESOURCE_KIND_NAMES = Object.keys(RESOURCE_KINDS);

/** A scope naming nothing (every kind's list absent is empty). */
export function emptyScope(): Scope {
  return { ids: {}, paths: {}, discover: {} };
}

/** The scope keys a listing can discover (`scope.<key>: all`), with what one entry is, in registry order. */
export const DISCOVERABLE_SCOPES = Object.values(RESOURCE_KINDS).flatMap((k) => (k.inputs.scope?.discovery ? [{ key: k.inputs.scope.key, description: k.inputs.scope.description, grant: k.completeWith ?? null }] : []));

/** The manifest inputs of the declared kinds, in registry order. */
export const RESOURCE_MANIFEST_INPUTS = Object.values(RESOURCE_KINDS).flatMap((k) => (k.inputs.manifests ? [k.inputs.manifests] : []));

/** The kind each `manifests` key of steward.yaml declares. */
export function kindOfManifestKey(key: string): string | undefined {
  return Object.values(RESOURCE_KINDS).find((k) => k.inputs.manifests?.key === key)?.name;
}

/** A fix value's schema and how it is compiled. */
export const fixValidation = (fixKind: FixKind): OwnSchema => ({ schema: fixKind.schema, options: { allErrors: true, strict: false } });
const fixValidator = validatorsBy(fixValidation);

/**
 * Why a policy's `fix` is not allowed for its kind (empty when it is). Only narrowing fix
 * kinds exist, and their schemas admit only narrowing values (`publicAccess: false`).
 */
export function fixProblems(
  kinds: Record<string, ResourceKind>,
  kindName: string,
  fix: Record<string, unknown>,
  perItemPolicy: boolean,
): string[] {
  const kind = kinds[kindName];
  if (!kind) return [`unknown resource kind ${kindName}`];
  const names = Object.keys(fix);
  const allowed = Object.keys(kind.fixes ?? {});
  if (names.length !== 1) return [`a fix names exactly one fix kind (${allowed.join(', ') || 'none for this kind'})`];
  const fixKind = kind.fixes?.[names[0]];
  if (!fixKind) {
    return [`${kindName} has no fix "${names[0]}"; allowed: ${allowed.join(', ') || 'none'}`];
  }
  const validate = fixValidator(fixKind);
  if (!validate(fix[names[0]])) {
    return [`fix ${names[0]}: ${errorsText(validate.errors, 'value')}`];
  }
  if (fixKind.perItem && !perItemPolicy) return [`fix ${names[0]} applies to an item: the policy needs \`each\``];
  return [];
}

export type { ResourceKind } from './types.js';
export { scopeEntries } from './discovery.js';
