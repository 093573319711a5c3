// An Action input left empty leaves its config twin in charge: with `failOn: none` in the config
// and no fail-on input, the Action reaches the exit code `steward check` reaches on the same
// config (the input used to default to low and always win); the same for history.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli } from '../cli/helpers.js';
import { demoWorkspace, removeWorkspace, runAction } from './run-action.js';

let sandbox: Sandbox;
const workspaces: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(async () => {
  for (const ws of workspaces) removeWorkspace(ws);
  await sandbox.close();
});

function workspaceWith(replace: (config: string) => string): string {
  const ws = demoWorkspace();
  workspaces.push(ws);
  const file = join(ws, 'steward.yaml');
  writeFileSync(file, replace(readFileSync(file, 'utf8')));
  return ws;
}

const connect = () => ({ 'base-url': sandbox.baseUrl, 'workflow-url': sandbox.workflowUrl, token: sandbox.token });

describe('inputs with a config twin', () => {
  test('fail-on left empty: the config’s failOn decides, as for steward check', async () => {
    const ws = workspaceWith((c) => `${c.replace(/^failOn:.*$/m, '')}\nfailOn: none\n`);
    const cli = await runCli(['check', '--format', 'json'], { cwd: ws, env: { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: sandbox.token } });
    expect(cli.code).toBe(0);
    const run = await runAction(ws, connect());
    expect(run.code).toBe(0);
    expect(run.outputs.gate).toBe('pass');
    // The input still wins when it is given.
    const strict = await runAction(ws, { ...connect(), 'fail-on': 'low' });
    expect(strict.code).toBe(1);
  });

  test('history left empty: the config’s history is recorded', async () => {
    const ws = workspaceWith((c) => `${c.replace(/^history:.*$/m, '')}\nhistory: .steward/h.sqlite\n`);
    await runAction(ws, connect());
    expect(existsSync(join(ws, '.steward/h.sqlite'))).toBe(true);
  });
});
