import type { OwnSchema } from '../src/core/own-validator.js';

export function ownValidatorsModule(entries: [name: string, own: OwnSchema][], keyOf: (own: OwnSchema) => string): string;

export function ownValidatorsChunks(
  entries: [name: string, own: OwnSchema][],
  keyOf: (own: OwnSchema) => string,
): { module: string; chunks: Map<string, string> };
