// The first hour of a new team, as the issue walks it: the packed tarball installed into a fresh
// repository, `steward init`, pointed at the sandbox, `doctor` then `check`: every selected policy
// evaluates something and no empty-scope warning shows; the Action, run as a runner runs it on the
// same config, reaches the same exit code.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runAction } from '../action/run-action.js';
import { spawnProcess, tempDir } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-first-hour' });
});
afterAll(() => sandbox.close());

/** Runs the installed binary without blocking this process's event loop (the sandbox answers in it). */
function steward(project: string, args: string[], env: Record<string, string>) {
  return spawnProcess(path.join(project, 'node_modules/.bin/steward'), args, { cwd: project, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? project, ...env } });
}

/** Policies that compare the instance with a manifest: init writes none, so they have nothing to compare. */
const MANIFEST_COMPARISONS = /-match(es)?-manifest$/;

describe('the first hour', () => {
  it('tarball → init → doctor → check covers the instance; the Action on the same config exits the same', { timeout: 240_000 }, async () => {
    const out = tempDir('steward-first-hour-pack-');
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { encoding: 'utf8' })) as { filename: string }[];
    const project = tempDir('steward-first-hour-');
    mkdirSync(path.join(project, '.git'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'governance', private: true }));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(out, packed[0].filename)], { cwd: project, stdio: 'pipe' });

    const env = { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: sandbox.token };
    const init = await steward(project, ['init'], {});
    expect(init.code, init.stderr).toBe(0);
    expect(readdirSync(project)).toEqual(expect.arrayContaining(['steward.yaml', 'policies', 'waivers.yaml', '.github']));

    const doctor = await steward(project, ['doctor'], env);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toContain('all checks ok');
    expect(doctor.stdout).not.toMatch(/\swarn\s/);

    const check = await steward(project, ['check', '--format', 'json'], env);
    expect(check.stderr).toBe(''); // no empty-scope warning, nothing else
    expect(check.code).toBe(1);
    const report = JSON.parse(check.stdout) as Report;
    expect(report.summary.errors).toBe(0);
    const idle = report.policies.filter((p) => p.evaluated === 0).map((p) => p.id);
    expect(idle.filter((id) => !MANIFEST_COMPARISONS.test(id))).toEqual([]);
    expect(report.policies.length).toBeGreaterThan(40);

    const action = await runAction(project, { config: 'steward.yaml', 'base-url': sandbox.baseUrl, 'workflow-url': sandbox.workflowUrl, token: sandbox.token });
    expect(action.code, action.stderr).toBe(check.code);
    expect(action.outputs.gate).toBe('fail');
    expect(Number(action.outputs.violations)).toBe(report.summary.violations);
  });
});
