// The instance's calculated-field statistics: one resource, id `instance`.
import type { ResourceKind } from '../types.js';
import { readProbe } from '../common.js';

export const CALCULATED_FIELDS_RESOURCE_ID = 'instance';

const counter = { type: 'integer', minimum: 0 };

export const calculatedFields: ResourceKind = {
  name: 'calculatedFields',
  description: 'Instance-wide calculated-field statistics (one resource, id "instance").',
  live: true,
  inputs: {},
  operations: ['getCalculatedFieldStatistics'],
  documentSchema: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { const: CALCULATED_FIELDS_RESOURCE_ID },
      total: counter,
      onDatasets: counter,
      onCards: counter,
      inVisualizations: counter,
      locked: counter,
      invalid: counter,
      invalidLink: counter,
      archived: counter,
    },
  },
  parts: {},
  ownerless: "instance-wide statistics belong to no one: route them with the config's owners: map",
  probes: [
    readProbe('calculatedFields', ['getCalculatedFieldStatistics'], 'calculated-field statistics can be read', 'GET calculated-field statistics', (api) => api.getCalculatedFieldStatistics(),
      "give the token's user access to the calculated-field statistics"),
  ],
  async *collect(ctx) {
    const stats = await ctx.api.getCalculatedFieldStatistics();
    const id = CALCULATED_FIELDS_RESOURCE_ID;
    yield { kind: 'calculatedFields', id, name: null, doc: { ...stats, id }, source: null };
  },
};
