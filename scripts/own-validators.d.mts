import type { OwnSchema } from '../src/core/own-validator.js';

export function ownValidatorsModule(entries: [name: string, own: OwnSchema][], keyOf: (own: OwnSchema) => string): string;
