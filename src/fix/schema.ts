// JSON Schema of a saved fix plan (`steward fix --plan-out`). Published as
// schema/plan.schema.json; test/fix checks the published copy equals this object.
import { closedSchema } from '../core/schema-id.js';

const resource = {
  type: 'object',
  required: ['kind', 'id', 'name'],
  properties: { kind: { type: 'string' }, id: { type: 'string' }, name: { type: ['string', 'null'] } },
};

const manifestRef = {
  description: 'the manifest the change was planned from, with the sha256 of its text then',
  anyOf: [
    { type: 'null' },
    {
      type: 'object',
      additionalProperties: false,
      required: ['file', 'sha256'],
      properties: { file: { type: 'string', minLength: 1 }, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
    },
  ],
};

const strings = { type: 'array', items: { type: 'string' } };
const doc = { type: 'object', required: ['id'], properties: { id: { type: ['string', 'integer'] } } };

const change = {
  type: 'object',
  additionalProperties: false,
  required: ['n', 'type', 'policies', 'findings', 'resource', 'manifest', 'request', 'before', 'after', 'diff', 'warnings'],
  properties: {
    n: { type: 'integer', minimum: 1, description: 'order of application, from 1' },
    type: { enum: ['state', 'action'], description: 'state: writes the whole declared state; action: one fix request' },
    policies: strings,
    findings: { ...strings, description: 'fingerprints of the findings this change fixes' },
    resource,
    manifest: manifestRef,
    request: {
      type: 'object',
      additionalProperties: false,
      required: ['operation', 'method', 'path', 'body'],
      properties: {
        operation: { type: 'string' },
        method: { enum: ['POST', 'PUT'] },
        path: { type: 'string', pattern: '^/' },
        body: { description: 'the full body: permission writes replace the whole list' },
      },
    },
    before: { ...doc, description: 'the declared document before the change' },
    after: { ...doc, description: 'the document after every fix of this resource' },
    diff: { ...strings, description: 'readable before → after lines' },
    warnings: strings,
    fix: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'value'],
      properties: { name: { type: 'string' }, value: {} },
    },
  },
};

const notPlanned = {
  type: 'object',
  additionalProperties: false,
  required: ['policies', 'findings', 'resource', 'manifest', 'reason'],
  properties: { policies: strings, findings: strings, resource, manifest: manifestRef, reason: { type: 'string' } },
};

const alreadyApplied = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'policies', 'findings', 'resource', 'manifest', 'request', 'after', 'journal'],
  properties: {
    type: change.properties.type,
    policies: strings,
    findings: strings,
    resource,
    manifest: manifestRef,
    request: change.properties.request,
    after: change.properties.after,
    journal: {
      type: 'object',
      additionalProperties: false,
      required: ['file', 'planId', 'change', 'time'],
      description: 'the journal entry that recorded this exact request as applied',
      properties: {
        file: { type: 'string' },
        planId: { type: 'string' },
        change: { type: 'integer', minimum: 1 },
        time: { type: 'string' },
      },
    },
  },
};

export const PLAN_SCHEMA = closedSchema('plan', 'steward fix plan', {
  required: ['schemaVersion', 'id', 'createdAt', 'instance', 'changes', 'notPlanned', 'manifests'],
  properties: {
    schemaVersion: { const: 1 },
    id: { type: 'string', pattern: '^[0-9a-f]{16}$', description: 'hash of the changes and the manifests' },
    createdAt: { type: 'string' },
    instance: { type: ['string', 'null'] },
    changes: { type: 'array', items: change },
    notPlanned: { type: 'array', items: notPlanned },
    withoutFix: { type: 'integer', minimum: 0, description: 'violations of policies that name no fix (fixed by hand, as each description says)' },
    alreadyApplied: {
      type: 'array',
      items: alreadyApplied,
      description:
        'with --journal FILE: changes left out because the journal records the same request as applied from the same declared state',
    },
    manifests: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['file', 'sha256'],
        properties: { file: { type: 'string' }, sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      },
    },
  },
});
