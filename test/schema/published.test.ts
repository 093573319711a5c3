// Every input and output has a published JSON Schema under schema/, each `$id` under one base,
// each generated from (or equal to) the schema the code validates with; the demo's files are
// valid against them.
import { NOTIFICATION_SCHEMA } from '../../src/library/notify-payloads.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { SCHEMA_ID_BASE } from '../../src/core/schema-id.js';
import { OPERATION_IDS, operation } from '../../src/api/operations.js';
import { baselineFileSchema } from '../../src/engine/baseline.js';
import { waiversFileSchema } from '../../src/engine/waivers.js';
import { cardSharingManifestSchema, dataFileManifestSchema, pageSharingManifestSchema, queueManifestSchema } from '../../src/resources/manifests.js';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

describe('published schemas', () => {
  it('config, policy, waivers, the manifests, baseline, plan, report and notification, each $id under one base', () => {
    const files = readdirSync('schema').sort();
    expect(files).toEqual([
      'baseline.schema.json',
      'card-sharing-manifest.schema.json',
      'config.schema.json',
      'data-file-manifest.schema.json',
      'notification.schema.json',
      'page-sharing-manifest.schema.json',
      'plan.schema.json',
      'policy.schema.json',
      'queue-manifest.schema.json',
      'report.schema.json',
      'waivers.schema.json',
    ]);
    for (const f of files) expect(read(`schema/${f}`).$id).toBe(`${SCHEMA_ID_BASE}${f}`);
  });

  it('every published schema is valid against its meta-schema (the loaders compile them without that check: OWN_SCHEMA)', () => {
    const ajv = new Ajv({ strict: false });
    for (const f of readdirSync('schema')) {
      const schema = read(`schema/${f}`);
      expect(ajv.validateSchema(schema), `${f}: ${JSON.stringify(ajv.errors)}`).toBe(true);
    }
    // The API's response schemas too (compiled on first use in every live or offline run).
    for (const id of OPERATION_IDS) {
      const op = operation(id);
      for (const schema of [op.response, op.item].filter(Boolean)) expect(ajv.validateSchema(schema as object), `${id}: ${JSON.stringify(ajv.errors)}`).toBe(true);
    }
    // The check can fail: a type that is not a JSON type.
    expect(ajv.validateSchema({ type: 'strin' })).toBe(false);
  });

  it('the waivers, baseline and manifest schemas are the ones the loaders use', () => {
    expect(read('schema/waivers.schema.json')).toEqual(waiversFileSchema);
    expect(read('schema/baseline.schema.json')).toEqual(baselineFileSchema);
    expect(read('schema/queue-manifest.schema.json')).toEqual(queueManifestSchema);
    expect(read('schema/data-file-manifest.schema.json')).toEqual(dataFileManifestSchema);
    expect(read('schema/page-sharing-manifest.schema.json')).toEqual(pageSharingManifestSchema);
    expect(read('schema/card-sharing-manifest.schema.json')).toEqual(cardSharingManifestSchema);
    expect(read('schema/notification.schema.json')).toEqual(NOTIFICATION_SCHEMA);
  });

  it('a baseline steward writes is valid against its schema', async () => {
    const { createBaseline } = await import('../../src/engine/baseline.js');
    const { makeReport } = await import('../fixtures/report.js');
    const baseline = JSON.parse(JSON.stringify(createBaseline(makeReport().findings, new Date('2026-11-23T00:00:00Z'))));
    const validate = new Ajv({ strict: false }).compile(read('schema/baseline.schema.json'));
    expect(validate(baseline), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(baseline.entries).length).toBeGreaterThan(0);
    expect(validate({ ...baseline, fingerprints: [1] })).toBe(false);
  });

  it('the demo waivers and manifests are valid against them', () => {
    const check = (schema: string, file: string) => {
      const validate = new Ajv({ strict: false }).compile(read(`schema/${schema}`));
      expect(validate(parse(readFileSync(file, 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    check('waivers.schema.json', 'demo/waivers.yaml');
    for (const f of readdirSync('demo/permissions/queues')) check('queue-manifest.schema.json', path.join('demo/permissions/queues', f));
    for (const f of readdirSync('demo/permissions/data-files')) check('data-file-manifest.schema.json', path.join('demo/permissions/data-files', f));
    for (const f of readdirSync('demo/permissions/pages')) check('page-sharing-manifest.schema.json', path.join('demo/permissions/pages', f));
    for (const f of readdirSync('demo/permissions/cards')) check('card-sharing-manifest.schema.json', path.join('demo/permissions/cards', f));
  });
});
