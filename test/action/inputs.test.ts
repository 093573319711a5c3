// Input reading: defaults of action.yml, paths against the workspace, and every bad value
// rejected before anything is sent (one InputError naming each input).
import { describe, expect, test } from 'vitest';
import { readInputs } from '../../src/action/inputs.js';
import { InputError } from '../../src/core/problem.js';

const WS = '/ws';
const reader = (values: Record<string, string>) => (name: string) => values[name] ?? '';

describe('readInputs', () => {
  test('unset inputs take the defaults of action.yml', () => {
    expect(readInputs(reader({}), WS)).toEqual({
      workspace: WS,
      config: '/ws/steward.yaml',
      baseline: undefined,
      sarifFile: undefined,
      jsonFile: undefined,
      baseUrl: undefined,
      workflowUrl: undefined,
      token: undefined,
      workflowToken: undefined,
      failOn: undefined,
      fix: 'none',
      fixConfirm: false,
      allowEmpty: false,
      issues: false,
      issuesBy: 'policy',
      instances: [],
      overrides: [],
    });
  });

  test('paths resolve against the workspace, absolute ones stay', () => {
    const inputs = readInputs(
      reader({ config: 'ci/steward.yaml', 'sarif-file': 'out/s.sarif', 'json-file': '/tmp/r.json', baseline: 'b.json' }),
      WS,
    );
    expect([inputs.config, inputs.sarifFile, inputs.jsonFile, inputs.baseline]).toEqual([
      '/ws/ci/steward.yaml',
      '/ws/out/s.sarif',
      '/tmp/r.json',
      '/ws/b.json',
    ]);
  });

  test('fix apply with fix-confirm true is accepted', () => {
    const inputs = readInputs(reader({ fix: 'apply', 'fix-confirm': 'true', 'fail-on': 'none' }), WS);
    expect([inputs.fix, inputs.fixConfirm, inputs.failOn]).toEqual(['apply', true, 'none']);
  });

  test('bad values are one InputError naming every input', () => {
    let error: unknown;
    try {
      readInputs(reader({ 'fail-on': 'severe', fix: 'apply', 'fix-confirm': 'yes' }), WS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message.split('\n')).toEqual([
      'input fail-on: must be one of info, low, medium, high, critical, none; got "severe"',
      'input fix-confirm: must be true or false; got "yes"',
      'input fix: apply writes permissions to the instance: set fix-confirm: true to allow it (nothing was sent)',
    ]);
  });

  test('fix apply without fix-confirm is refused', () => {
    expect(() => readInputs(reader({ fix: 'apply' }), WS)).toThrow(/set fix-confirm: true/);
  });
});
