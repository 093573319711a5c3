// `env:NAME` references: one pattern for the schema and the token check, one way to read the name.
import { describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA } from '../../src/config/schema.js';
import { ENV_REF_PATTERN, envVariableOf, isEnvRef } from '../../src/config/env-ref.js';

describe('env:NAME references', () => {
  it('are env: and a variable name, nothing else', () => {
    expect(['env:STEWARD_TOKEN', 'env:_x1'].map(isEnvRef)).toEqual([true, true]);
    expect(['env:', 'env:1X', 'env:A-B', 'ENV:A', ' env:A', 'env:A ', 'tok-123'].map(isEnvRef)).toEqual([false, false, false, false, false, false, false]);
    expect(envVariableOf('env:STEWARD_HISTORY_URL')).toBe('STEWARD_HISTORY_URL');
  });

  it('the schema requires the same pattern wherever a value is a secret (instance tokens, webhook URL and key)', () => {
    const patterns = JSON.stringify(CONFIG_SCHEMA).match(/"pattern":"\^env:[^"]*"/g);
    expect(patterns).toEqual(Array(4).fill(`"pattern":${JSON.stringify(ENV_REF_PATTERN)}`));
  });
});
