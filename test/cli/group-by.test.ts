// `check --group-by owner|policy|instance`: text, markdown and HTML list the findings under their
// team or owner (most findings first, `owner unknown` last), their policy, or their instance;
// markdown locations link to the file at the commit inside a GitHub Actions job.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../src/core/model.js';
import { ownerGroup } from '../../src/core/owner.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { runCli, sandboxEnv, tempDir } from './helpers.js';

let sandbox: Sandbox;
let report: Report;
const DEMO = ['--config', 'demo/steward.yaml'];
beforeAll(async () => {
  sandbox = await startSandbox();
  report = JSON.parse((await runCli(['check', ...DEMO, '--format', 'json'], { env: sandboxEnv(sandbox) })).stdout) as Report;
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetCounts());

/** Owner headings and their sizes, as the report's findings give them (errors and run-wide ones aside). */
function expectedOwnerGroups(findings: readonly Finding[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const f of findings) if (f.status !== 'error') counts.set(ownerGroup(f), (counts.get(ownerGroup(f)) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => Number(a === 'owner unknown') - Number(b === 'owner unknown') || y - x || a.localeCompare(b));
}

describe('check --group-by', () => {
  it('owner: markdown has one <details> per owner, most findings first and `owner unknown` last, every finding once', async () => {
    const r = await runCli(['check', ...DEMO, '--format', 'markdown', '--group-by', 'owner'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    const summaries = r.stdout.split('\n').filter((l) => l.startsWith('<summary>'));
    const expected = expectedOwnerGroups(report.findings);
    expect(summaries).toEqual(expected.map(([title, n]) => `<summary>${title.replace(/([*_[\]])/g, '\\$1')} · ${n} finding${n === 1 ? '' : 's'}</summary>`));
    expect(expected[0]).toEqual(['USER Eva Novak (31)', expect.any(Number)]);
    expect(expected.at(-1)![0]).toBe('owner unknown');
    const rows = r.stdout.split('\n').filter((l) => /\| (violation|waived: .*) \|$/.test(l));
    expect(rows).toHaveLength(report.findings.filter((f) => f.status !== 'error').length);
  });

  it('owner: text lists each owner with its findings, each naming its policy', async () => {
    const r = await runCli(['check', ...DEMO, '--group-by', 'owner'], { env: { ...sandboxEnv(sandbox), COLUMNS: '200' } });
    expect(r.code).toBe(1);
    const headings = r.stdout.split('\n').filter((l) => / \d+ findings?$/.test(l));
    expect(headings).toEqual(expectedOwnerGroups(report.findings).map(([title, n]) => `${title}  ${n} finding${n === 1 ? '' : 's'}`));
    expect(r.stdout).toContain('  ✖ workflows-are-named · workflow/wf-unnamed: ');
  });

  it('instance: the findings under the instance, then by policy; policy is the default', async () => {
    const byInstance = await runCli(['check', ...DEMO, '--group-by', 'instance'], { env: sandboxEnv(sandbox) });
    const plain = await runCli(['check', ...DEMO], { env: sandboxEnv(sandbox) });
    expect(byInstance.stdout.split('\n')[2]).toBe(`instance ${report.instance}`);
    // The same lines but the stats line (its duration and rate vary run to run).
    const steady = (lines: string[]) => lines.filter((l) => !l.includes(' · fail-on '));
    expect(steady(byInstance.stdout.split('\n').slice(4))).toEqual(steady(plain.stdout.split('\n').slice(2)));
    const policy = await runCli(['check', ...DEMO, '--group-by', 'policy'], { env: sandboxEnv(sandbox) });
    expect(steady(policy.stdout.split('\n'))).toEqual(steady(plain.stdout.split('\n')));
  });

  it('owner: the HTML report groups its findings tables under the owners', async () => {
    const file = path.join(tempDir(), 'r.html');
    await runCli(['check', ...DEMO, '--output', `html=${file}`, '--group-by', 'owner'], { env: sandboxEnv(sandbox) });
    const html = readFileSync(file, 'utf8');
    const headings = [...html.matchAll(/<h3 id="owner-[^"]*">([^<]*)<\/h3>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    expect(headings).toEqual(expectedOwnerGroups(report.findings).map(([title]) => title));
  });

  it('in a GitHub Actions job, markdown locations link to the file at the commit', async () => {
    const sha = 'a'.repeat(40);
    const env = { ...sandboxEnv(sandbox), GITHUB_SERVER_URL: 'https://github.example', GITHUB_REPOSITORY: 'acme/governance', GITHUB_SHA: sha };
    const r = await runCli(['check', ...DEMO, '--format', 'markdown'], { env });
    expect(r.stdout).toContain(`[\`demo/permissions/data-files/42.yaml:2:1\`](https://github.example/acme/governance/blob/${sha}/demo/permissions/data-files/42.yaml#L2)`);
    const local = await runCli(['check', ...DEMO, '--format', 'markdown'], { env: sandboxEnv(sandbox) });
    expect(local.stdout).toContain('| `demo/permissions/data-files/42.yaml:2:1` |');
  });

  it('an unknown key is exit 2 before any request', async () => {
    const r = await runCli(['check', ...DEMO, '--group-by', 'team'], { env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("option '--group-by <key>' argument 'team' is invalid. must be one of: policy, owner, instance.");
    expect(sandbox.totalRequests()).toBe(0);
  });
});
