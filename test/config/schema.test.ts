import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA } from '../../src/config/index.js';

describe('schema/config.schema.json', () => {
  it('is the published copy of CONFIG_SCHEMA (run `npm run build` after changing it)', () => {
    const published = readFileSync(new URL('../../schema/config.schema.json', import.meta.url), 'utf8');
    expect(published).toBe(`${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`);
  });
});
