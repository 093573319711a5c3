// Policy packs by name: a package installed from a local tarball, named in `policies:` by its
// package name, is loaded and reported with its version (JSON `policies[].source`, `steward
// list`, the history's policy-set hash); a name that is not installed is exit 2 saying how.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, sandboxEnv, tempDir } from '../cli/helpers.js';

const PACK = '@acme/steward-policies';
const POLICY = `policies:
  - id: acme-schedules-have-a-title
    title: Report schedules have a title
    description: An untitled schedule is hard to review.
    severity: low
    resource: reportSchedule
    assert: resource.title != ''
    message: "Schedule {{ resource.id }} has no title"
`;

/** Packs `version` of the pack into a tarball and installs it into a fresh project; returns the project. */
function projectWithPack(version: string): string {
  const src = tempDir('steward-pack-src-');
  writeFileSync(path.join(src, 'package.json'), JSON.stringify({ name: PACK, version, files: ['policies'], steward: { policies: ['policies'] } }));
  mkdirSync(path.join(src, 'policies'));
  writeFileSync(path.join(src, 'policies', 'schedules.yaml'), POLICY);
  const out = tempDir('steward-pack-tgz-');
  execFileSync('npm', ['pack', '--silent', '--pack-destination', out], { cwd: src, encoding: 'utf8' });
  const tarball = path.join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
  const project = tempDir('steward-pack-project-');
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'audit', private: true }));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--no-package-lock', tarball], { cwd: project, encoding: 'utf8' });
  writeFileSync(path.join(project, 'steward.yaml'), `policies: ["${PACK}"]\nfailOn: none\n`);
  return project;
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

describe('a policy pack named by its package', () => {
  it('is loaded from node_modules and reported with its version: JSON policies[].source, list, and the policy-set hash', async () => {
    const project = projectWithPack('1.2.0');
    const env = sandboxEnv(sandbox);
    const r = await runCli(['check', '--format', 'json'], { cwd: project, env });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.policies.map((p) => [p.id, p.source])).toEqual([['acme-schedules-have-a-title', { package: PACK, version: '1.2.0' }]]);
    expect(report.policies[0].evaluated).toBeGreaterThan(0);
    const list = await runCli(['list'], { cwd: project });
    expect(list.stdout.split('\n')[1]).toMatch(/^acme-schedules-have-a-title\s+low\s+reportSchedule\s+@acme\/steward-policies@1\.2\.0\s+Report schedules have a title$/);

    // A new version of the pack is a new policy set for the history.
    const history = path.join(project, 'h.sqlite');
    await runCli(['check', '--history', history, '--quiet'], { cwd: project, env });
    const upgraded = projectWithPack('1.3.0');
    const again = await runCli(['check', '--history', history, '--quiet'], { cwd: upgraded, env });
    expect(again.code, again.stderr).toBe(0);
    const { default: initSqlJs } = await import('sql.js');
    const SQL = await initSqlJs();
    const { readFileSync } = await import('node:fs');
    const db = new SQL.Database(readFileSync(history));
    const hashes = db.exec('SELECT policy_hash FROM runs ORDER BY id')[0].values.map((row) => row[0]);
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).not.toBe(hashes[1]);
  });

  it('a pack that is not installed is exit 2 at its entry, saying how to install it; nothing sent', async () => {
    const project = tempDir('steward-pack-missing-');
    writeFileSync(path.join(project, 'steward.yaml'), `policies:\n  - "${PACK}"\n`);
    sandbox.resetCounts();
    const r = await runCli(['check'], { cwd: project, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `steward.yaml:2:5: policies: package "${PACK}" is not installed (looked in node_modules from ${project} up): install it with \`npm install --save-dev ${PACK}\``,
    );
    expect(sandbox.totalRequests()).toBe(0);
  });
});
