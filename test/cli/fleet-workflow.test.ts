// The fan-out workflow of README "A fleet of instances" (docs/workflows/steward-fleet.yml):
// parsed by GitHub's own workflow parser, then its steps run as a runner runs them (bash
// --noprofile --norc -eo pipefail, the step's env, `npx` answered by the built CLI): one check
// job per instance of the matrix, the artifacts gathered as download-artifact does, and the merge
// step, whose exit is the gate; an instance whose job wrote no report fails it.
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { loadWorkflowParser } from '../action/workflow-parser.js';
import { CLI, copyDemo, REPO, spawnProcess, tempDir } from './helpers.js';
import { sarifValidator } from '../report/schema-validators.js';

const WORKFLOW = path.join(REPO, 'docs/workflows/steward-fleet.yml');
const VERSION = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version as string;

interface Step {
  uses?: { toString(): string };
  run?: { toString(): string };
  env?: unknown;
  'continue-on-error'?: unknown;
}
interface Job {
  id: { toString(): string };
  needs?: { toString(): string }[];
  if?: { toString(): string };
  strategy?: unknown;
  steps: Step[];
}

let sandboxes: Record<string, Sandbox>;
let jobs: Job[];
let bin: string;

beforeAll(async () => {
  const [prod, staging] = await Promise.all([startSandbox(), startSandbox()]);
  sandboxes = { prod: prod!, staging: staging! };
  const parser = await loadWorkflowParser();
  const parsed = parser.parseWorkflow({ name: 'steward-fleet.yml', content: readFileSync(WORKFLOW, 'utf8') }, parser.trace);
  expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
  const template = await parser.convertWorkflowTemplate(parsed.context, parsed.value!);
  expect(template.errors).toBeUndefined();
  jobs = template.jobs as unknown as Job[];
  // `npx -y @steward-pac/steward@<version> …` answered by the built CLI, the package spec checked.
  bin = tempDir('steward-npx-');
  writeFileSync(
    path.join(bin, 'npx'),
    `#!/usr/bin/env bash\n[ "$1" = "-y" ] && [ "$2" = "@steward-pac/steward@${VERSION}" ] || { echo "unexpected npx $*" >&2; exit 99; }\nshift 2\nexec "${process.execPath}" "${CLI}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'npx'), 0o755);
}, 60_000);
afterAll(async () => {
  await Promise.all(Object.values(sandboxes ?? {}).map((s) => s.close()));
});

/** A step's script run as the runner runs a `run:` step, in `cwd`, with `env` (asynchronously: the sandboxes answer from this process). */
function runStep(step: Step, cwd: string, env: Record<string, string>) {
  const script = path.join(tempDir('steward-step-'), 'step.sh');
  writeFileSync(script, step.run!.toString());
  return spawnProcess('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME ?? '', ...env } });
}

/** The demo project with the two sandboxes as `prod` and `staging`, as the workflow's config names them. */
function project(): string {
  const dir = copyDemo();
  const entry = (name: string) => {
    const s = sandboxes[name]!;
    return `  ${name}: { baseUrl: "${s.baseUrl}", token: env:STEWARD_TOKEN_${name.toUpperCase()}, workflowUrl: "${s.workflowUrl}", workflowToken: env:STEWARD_TOKEN_${name.toUpperCase()} }\n`;
  };
  writeFileSync(path.join(dir, 'steward.yaml'), `${readFileSync(path.join(dir, 'steward.yaml'), 'utf8')}\ninstances:\n${entry('prod')}${entry('staging')}`);
  return dir;
}

describe('the fleet workflow', () => {
  it('is one check job per instance and a merge job after all of them; every action pinned by commit, the package by version', () => {
    expect(jobs.map((j) => j.id.toString())).toEqual(['check', 'merge']);
    const [check, merge] = jobs as [Job, Job];
    expect(merge.needs?.map((n) => n.toString())).toEqual(['check']);
    expect(merge.if?.toString()).toContain('always()');
    const uses = jobs.flatMap((j) => j.steps.flatMap((s) => (s.uses ? [s.uses.toString()] : [])));
    for (const u of uses) expect(u).toMatch(/@[0-9a-f]{40}$/);
    const runs = jobs.flatMap((j) => j.steps.flatMap((s) => (s.run ? [s.run.toString()] : [])));
    expect(runs.every((r) => r.includes(`npx -y @steward-pac/steward@${VERSION} `))).toBe(true);
    expect(check.steps.find((s) => s.run)?.['continue-on-error']?.toString()).toBe('true');
  });

  it('its steps, run as a runner runs them: each instance checked alone, the merge the gate; a missing report fails it', async () => {
    const [check, merge] = jobs as [Job, Job];
    const dir = project();
    const checkStep = check.steps.find((s) => s.run)!;
    const tokens = { prod: sandboxes.prod!.token, staging: sandboxes.staging!.token };
    const workflowTokens = { prod: sandboxes.prod!.workflowToken, staging: sandboxes.staging!.workflowToken };
    // Each matrix job holds its own instance's token only.
    for (const instance of ['prod', 'staging'] as const) {
      const token = instance === 'prod' ? tokens.prod : tokens.staging;
      expect(workflowTokens[instance]).toBe(token);
      const r = await runStep(checkStep, dir, { INSTANCE: instance, [`STEWARD_TOKEN_${instance.toUpperCase()}`]: token });
      expect([instance, r.code, r.stderr]).toEqual([instance, 1, expect.any(String)]);
    }
    // download-artifact with pattern steward-* and merge-multiple: every report in reports/.
    const reports = path.join(dir, 'reports');
    mkdirSync(reports);
    for (const f of readdirSync(dir).filter((f) => /^steward-.*\.json$/.test(f))) copyFileSync(path.join(dir, f), path.join(reports, f));
    expect(readdirSync(reports).sort()).toEqual(['steward-prod.json', 'steward-staging.json']);
    const summary = path.join(dir, 'summary.md');
    const gate = merge.steps.find((s) => s.run)!;
    const merged = await runStep(gate, dir, { GITHUB_STEP_SUMMARY: summary });
    expect(merged.code).toBe(1);
    const md = readFileSync(summary, 'utf8');
    expect(md.split('\n')[0]).toMatch(/^### ❌ steward: fail: \d+ violations/);
    // One collapsible section per instance, in the order of the config (a URL kept from linking).
    const shown = (name: string) => `instance ${name} (${sandboxes[name]!.baseUrl.replace('://', '\\://')})`;
    expect(md.split('\n').filter((l) => l.startsWith('<summary>instance ')).map((l) => l.replace(/ · \d+ findings<\/summary>$/, ''))).toEqual([`<summary>${shown('prod')}`, `<summary>${shown('staging')}`]);
    const sarif = JSON.parse(readFileSync(path.join(dir, 'steward.sarif'), 'utf8')) as { runs: { automationDetails: { id: string } }[] };
    expect(sarifValidator()(sarif)).toEqual([]);
    expect(new Set(sarif.runs.map((r) => r.automationDetails.id)).size).toBe(2);
    expect(readFileSync(path.join(dir, 'steward.html'), 'utf8')).toContain('<h3 id="instance-staging">');
    // Staging's job wrote nothing this time: the merge fails closed, naming it.
    writeFileSync(path.join(reports, 'steward-staging.json'), '');
    const broken = await runStep(gate, dir, { GITHUB_STEP_SUMMARY: summary });
    expect(broken.code).toBe(2);
    mkdirSync(path.join(dir, 'only-prod'));
    copyFileSync(path.join(reports, 'steward-prod.json'), path.join(dir, 'only-prod', 'steward-prod.json'));
    const missing = await runStep({ run: gate.run!.toString().replaceAll('reports/', 'only-prod/') }, dir, { GITHUB_STEP_SUMMARY: summary });
    expect(missing.code).toBe(3);
    expect(readFileSync(summary, 'utf8')).toContain('staging: no report (its job wrote none, so nothing of it was checked)');
  }, 120_000);
});
