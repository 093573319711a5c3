// Bad input of every kind exits 2 with file:line:column and sends nothing (DESIGN §4, §9).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { BUILTIN_POLICIES, copyDemo, runCli, sandboxEnv, tempDir } from './helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-input-errors-42' });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

/** A copy of demo/ with one file replaced (or added). */
function demoWith(rel: string, text: string): string {
  const dir = copyDemo();
  writeFileSync(path.join(dir, rel), text);
  return dir;
}

describe('config errors', () => {
  it('refuses a token in steward.yaml at its position, without echoing it', async () => {
    const dir = demoWith('steward.yaml', 'instance:\n  baseUrl: https://acme.example.com\n  token: s3cr3t-in-file\npolicies: [builtin]\n');
    const r = await runCli(['check'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^steward\.yaml:3:3: "token": tokens never go in steward\.yaml .*STEWARD_TOKEN/m);
    expect(r.stdout + r.stderr).not.toContain('s3cr3t-in-file');
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('names an unknown key with line:column', async () => {
    const dir = demoWith('steward.yaml', 'policies: [builtin]\nscope:\n  datasets: [ds-1]\n  dashboards: [1]\n');
    const r = await runCli(['check'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    // The allowed keys are the registry's scope keys, whatever kinds it holds.
    expect(r.stderr).toContain(`steward.yaml:4:3: unknown key "dashboards" in scope (allowed: ${Object.values(RESOURCE_KINDS).flatMap((k) => (k.inputs.scope ? [k.inputs.scope.key] : [])).join(', ')})`);
    expect(r.stderr).toContain('allowed: datasets, cards, queues');
  });

  it('with the defaults on purpose (--config builtin) but no instance or --sandbox, says what it needs', async () => {
    const r = await runCli(['check', '--config', 'builtin'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('STEWARD_BASE_URL: no instance to check: set STEWARD_BASE_URL');
    expect(r.stderr).toContain('steward check --sandbox');
    expect(r.stderr).toContain('STEWARD_TOKEN: no API token: set STEWARD_TOKEN');
  });
});

describe('steward validate', () => {
  it('exits 0 on the demo and names what it checked', async () => {
    const r = await runCli(['validate', '--config', 'demo/steward.yaml']);
    expect([r.code, r.stdout]).toEqual([0, `valid: ${BUILTIN_POLICIES} policies, 1 card-sharing manifest, 4 queue manifests, 3 data-file manifests, 1 page-sharing manifest, 1 waiver\n`]);
  });

  const cases: [string, string, string, RegExp][] = [
    ['config', 'steward.yaml', 'policies: [builtin]\nfailOn: sometimes\n', /^steward\.yaml:2:9: failOn must be one of/m],
    [
      'params',
      'steward.yaml',
      'policies: [builtin]\nparams:\n  calculated-fields-valid: { maxInvalid: 0 }\n  no-such-policy: { x: 1 }\n',
      /^steward\.yaml:4:3: params: no policy with id "no-such-policy"/m,
    ],
    [
      'manifest',
      'permissions/queues/marketing.yaml',
      'queue: q-marketing\npermissions:\n  - { id: "g-1", name: M, type: GROUP, permissions: [OWN] }\n',
      /^permissions\/queues\/marketing\.yaml:3:\d+: /m,
    ],
    [
      'waiver',
      'waivers.yaml',
      'waivers:\n  - policy: queue-no-admin-for-users\n    resource: q-x\n    owner: a@b.c\n    expires: 2099-01-01\n',
      /^waivers\.yaml:2:\d+: .*reason/m,
    ],
    [
      'policy',
      'policies/bad.yaml',
      'policies:\n  - id: Bad_Id\n    title: t\n    description: d\n    severity: high\n    resource: queue\n    assert: "true"\n    message: m\n',
      /^policies\/bad\.yaml:2:\d+: /m,
    ],
  ];
  for (const [kind, rel, text, expected] of cases) {
    it(`exits 2 on a bad ${kind} at file:line:column`, async () => {
      const dir = copyDemo();
      if (kind === 'policy') {
        writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [builtin, policies/]\n');
        mkdirSync(path.join(dir, 'policies'));
      }
      writeFileSync(path.join(dir, rel), text);
      const r = await runCli(['validate'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(expected);
      // validate never reaches an instance: no "nothing was sent" where nothing could have been.
      expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(/^steward: (bad input|\d+ input problems)$/);
      expect(r.stdout).toBe('');
      const check = await runCli(['check', '--base-url', 'http://127.0.0.1:9'], { cwd: dir, env: { STEWARD_TOKEN: 'x' } });
      expect([check.code, check.stderr.trimEnd().split('\n').at(-1)]).toEqual([2, expect.stringMatching(/; nothing was sent to the API$/)]);
    });
  }
});
