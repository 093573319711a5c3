// Several instances' runs combined into one evaluation (src/library/evaluate.ts): a warning every
// instance gives (a policy file's, the config's) is said once, unnamed; one an instance alone
// gives names it. Two sandboxes over HTTP on 127.0.0.1.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate } from '../../src/index.js';
import { PLANTED_TOKENS } from '../../src/sandbox/demo-people.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { tempDir } from '../cli/helpers.js';

let prod: Sandbox;
let staging: Sandbox;
beforeAll(async () => {
  [prod, staging] = await Promise.all([startSandbox(), startSandbox()]);
});
afterAll(async () => {
  await Promise.all([prod?.close(), staging?.close()]);
});

const TYPO = "policies.yaml:9:16: 'recipientCont' is not a field reportSchedule declares (did you mean 'recipientCount'?): every resource without it fails this expression, and has() of it is false";

function project(instances: string): string {
  const dir = tempDir();
  writeFileSync(
    path.join(dir, 'policies.yaml'),
    [
      'policies:',
      '  - id: schedules-have-recipients',
      '    title: Schedules have recipients',
      '    description: A schedule sends to someone.',
      '    severity: low',
      '    resource: reportSchedule',
      '    message: "schedule {{ resource.id }} has none"',
      '    assert: >-',
      '      resource.recipientCont > 0',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'steward.yaml'), `policies: [policies.yaml]\ninstances:\n${instances}`);
  return dir;
}

const entry = (s: Sandbox, name: string, extra = '') => `  ${name}: { baseUrl: "${s.baseUrl}", token: env:TOKEN_${name.toUpperCase()}${extra} }\n`;
const env = () => ({ TOKEN_PROD: prod.token, TOKEN_STAGING: staging.token });

describe('evaluate() of several instances: warnings', () => {
  it("one every instance gives once, unnamed; one of a single instance's named", async () => {
    const dir = project(entry(prod, 'prod', `, tokenId: ${PLANTED_TOKENS.expired}`) + entry(staging, 'staging'));
    const evaluation = await evaluate({ cwd: dir, env: env() });
    expect(evaluation.instance).toBe('prod, staging');
    const expired = new Date(prod.state.people.accessTokens.find((t) => t.id === PLANTED_TOKENS.expired)!.expires).toISOString().slice(0, 10);
    expect(evaluation.warnings).toEqual([TYPO, `prod: the token in use (access token ${PLANTED_TOKENS.expired}) expired on ${expired}`]);
  });

  it('the same warning from each instance is said once', async () => {
    const dir = project(entry(prod, 'prod', `, tokenId: ${PLANTED_TOKENS.expired}`) + entry(staging, 'staging', `, tokenId: ${PLANTED_TOKENS.expired}`));
    const evaluation = await evaluate({ cwd: dir, env: env() });
    // Both sandboxes plant the token with the same expiry (seeded): one line, unnamed.
    const expired = new Date(staging.state.people.accessTokens.find((t) => t.id === PLANTED_TOKENS.expired)!.expires).toISOString().slice(0, 10);
    expect(evaluation.warnings).toEqual([TYPO, `the token in use (access token ${PLANTED_TOKENS.expired}) expired on ${expired}`]);
  });

  it('one instance alone: its warnings as they are', async () => {
    const dir = project(entry(prod, 'prod', `, tokenId: ${PLANTED_TOKENS.expired}`));
    const evaluation = await evaluate({ cwd: dir, env: env() });
    expect(evaluation.warnings).toHaveLength(2);
    expect(evaluation.warnings[0]).toBe(TYPO);
    expect(evaluation.warnings[1]).toMatch(/^the token in use \(access token \d+\) expired on \d{4}-\d{2}-\d{2}$/);
  });
});
