import type { OwnSchema } from '../src/core/own-validator.js';

/** Every own validator compiled to Ajv's standalone code, in groups (one per set of options). */
export interface OwnValidatorGroups {
  readonly groups: readonly { comment: string; names: string[]; keys: string[]; code: string }[];
  readonly helpers: ReadonlyMap<string, string>;
  readonly ids: ReadonlyMap<string, string>;
}

export function ownValidatorGroups(entries: [name: string, own: OwnSchema][], keyOf: (own: OwnSchema) => string): OwnValidatorGroups;

export function ownValidatorsModule(made: OwnValidatorGroups): string;

export function ownValidatorsChunks(made: OwnValidatorGroups): { module: string; chunks: Map<string, string> };
