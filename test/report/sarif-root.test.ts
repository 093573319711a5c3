// SARIF paths are relative to the repository root (git top level, or GITHUB_WORKSPACE), as code
// scanning maps them, also when steward runs in a subdirectory of the repository.
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv, tempDir } from '../cli/helpers.js';
import { sarifValidator } from './schema-validators.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-sarif-root-0001' });
});
afterAll(() => sandbox.close());

async function sarifFrom(cwd: string, env: Record<string, string> = {}) {
  const r = await runCli(['check', '--config', 'steward.yaml', '--only', 'queue-no-admin-for-users', '--format', 'sarif'], { cwd, env: { ...sandboxEnv(sandbox), ...env } });
  expect(r.code).toBe(1);
  const log = JSON.parse(r.stdout);
  expect(sarifValidator()(log)).toEqual([]);
  const run = log.runs[0];
  return { base: run.originalUriBaseIds['%SRCROOT%'].uri as string, uris: run.results.map((x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => x.locations[0].physicalLocation.artifactLocation.uri) as string[] };
}

/** A repository (or workspace) whose steward project lives in `infra/compliance/`. */
function nested(git: boolean): { root: string; project: string } {
  const root = tempDir('steward-repo-');
  if (git) mkdirSync(path.join(root, '.git'));
  const project = path.join(root, 'infra', 'compliance');
  mkdirSync(project, { recursive: true });
  cpSync(copyDemo(), project, { recursive: true });
  return { root, project };
}

describe('SARIF paths', () => {
  it('run in a subdirectory of a git repository: relative to the repository root', async () => {
    const { root, project } = nested(true);
    const { base, uris } = await sarifFrom(project);
    expect(base).toBe(`${pathToFileURL(root).href}/`);
    expect(uris).toEqual(['infra/compliance/permissions/queues/finance-intake.yaml', 'infra/compliance/permissions/queues/support-escalations.yaml', 'infra/compliance/permissions/queues/support-escalations.yaml']);
  });

  it('GITHUB_WORKSPACE above the cwd is the root too; run at the root, paths are unchanged', async () => {
    const { root, project } = nested(false);
    expect((await sarifFrom(project, { GITHUB_WORKSPACE: root })).uris[0]).toBe('infra/compliance/permissions/queues/finance-intake.yaml');
    const atRoot = await sarifFrom(project);
    expect(atRoot.uris[0]).toBe('permissions/queues/finance-intake.yaml');
    expect(atRoot.base).toBe(`${pathToFileURL(project).href}/`);
  });
});
