// End to end: the committed bundle run as the runner runs it, against a sandbox on loopback,
// in a workspace holding a copy of demo/ (demo/PLANTED.md lists what it must find).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { check } from '../../src/library/index.js';
import type { Report } from '../../src/core/model.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { PLANTED } from '../cli/helpers.js';
import { sarifValidator } from '../report/schema-validators.js';
import { type ActionRun, demoWorkspace, removeWorkspace, runAction } from './run-action.js';

/** demo/PLANTED.md: the planted findings, the break-glass one (q-support-escalations #15) waived. */
const DEMO_VIOLATIONS = PLANTED.length;
const DEMO_WAIVED = 1;

let sandbox: Sandbox;
let workspace: string;
let run: ActionRun;

/** Every place a run could leak a secret to: the log, the summary, outputs, files. */
function expectNoSecret(r: ActionRun, secret: string, files: string[] = []): void {
  // The one allowed occurrence is the mask command itself, which the runner consumes.
  const log = (r.stdout + r.stderr).split('\n').filter((line) => line !== `::add-mask::${secret}`);
  expect(log.join('\n')).not.toContain(secret);
  expect(r.summary).not.toContain(secret);
  expect(JSON.stringify(r.outputs)).not.toContain(secret);
  for (const f of files) expect(readFileSync(f, 'utf8')).not.toContain(secret);
}

beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-action-e2e-5f0c9a', workflowToken: 'wf-tok-action-e2e-77b1' });
  workspace = demoWorkspace();
  run = await runAction(workspace, {
    config: 'steward.yaml',
    'base-url': sandbox.baseUrl,
    'workflow-url': sandbox.workflowUrl,
    token: sandbox.token,
    'workflow-token': sandbox.workflowToken,
    'fail-on': 'low',
    'sarif-file': 'out/steward.sarif',
    'json-file': 'out/steward.json',
  });
});

afterAll(async () => {
  removeWorkspace(workspace);
  await sandbox.close();
});

describe('the action on the demo instance', () => {
  test('fails the step with exit code 1 on the planted violations', () => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    const failures = run.commands.filter((c) => c.command === 'error' && !c.properties.title);
    expect(failures.map((c) => c.message)).toEqual([
      `steward: ${DEMO_VIOLATIONS} unwaived violations (fail-on: low); see the job summary`,
    ]);
  });

  test('masks both tokens before anything else is printed', () => {
    const lines = run.stdout.split('\n');
    expect(lines.slice(0, 2)).toEqual([`::add-mask::${sandbox.token}`, `::add-mask::${sandbox.workflowToken}`]);
    const files = [join(workspace, 'out/steward.sarif'), join(workspace, 'out/steward.json')];
    expectNoSecret(run, sandbox.token, files);
    expectNoSecret(run, sandbox.workflowToken, files);
  });

  test('sets every output', () => {
    expect(run.outputs).toEqual({
      violations: String(DEMO_VIOLATIONS),
      errors: '0',
      waived: String(DEMO_WAIVED),
      gate: 'fail',
      'sarif-file': join(workspace, 'out/steward.sarif'),
      'report-file': join(workspace, 'out/steward.json'),
      'html-file': '',
    });
  });

  test('writes a SARIF 2.1.0 file and the JSON report', () => {
    const sarif = JSON.parse(readFileSync(join(workspace, 'out/steward.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarifValidator()(sarif)).toEqual([]);
    const results = sarif.runs[0].results as { ruleId: string; suppressions?: unknown[] }[];
    expect(results.filter((r) => !r.suppressions?.length)).toHaveLength(DEMO_VIOLATIONS);
    // The pack lives in the action's checkout, outside the workspace: its results sit on the
    // workspace's steward.yaml (the `builtin` entry), never on a path code scanning cannot map.
    const uris = sarif.runs[0].results.map(
      (r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => r.locations[0].physicalLocation.artifactLocation.uri,
    );
    for (const uri of uris) expect(uri).toMatch(/^(permissions\/|steward\.yaml$)/);
    const report = JSON.parse(readFileSync(join(workspace, 'out/steward.json'), 'utf8')) as Report;
    expect(report.summary).toMatchObject({ violations: DEMO_VIOLATIONS, waived: DEMO_WAIVED, errors: 0, gate: 'fail' });
    expect(report.instance).toBe(sandbox.baseUrl);
  });

  test('annotates manifest findings at the manifest entry line, paths relative to the workspace', () => {
    // The ten most severe errors are annotated (GitHub's cap): each one at its finding's location.
    const report = JSON.parse(readFileSync(join(workspace, 'out/steward.json'), 'utf8')) as Report;
    const errors = run.commands.filter((c) => c.command === 'error' && c.properties.title);
    expect(errors).toHaveLength(10);
    for (const c of errors) {
      const [, kindId] = /^(\S+)/.exec(c.message) ?? [];
      const finding = report.findings.find((f) => c.message.startsWith(`${f.resource.kind}/${f.resource.id}`) && c.properties.title === `${f.policy} (${f.severity})`);
      expect(finding, kindId).toBeDefined();
      if (finding!.location!.file.startsWith('permissions/')) {
        expect([c.properties.file, c.properties.line, c.properties.col]).toEqual([finding!.location!.file, String(finding!.location!.line), String(finding!.location!.column)]);
      }
    }
    // The raw workflow command, as the runner reads it from stdout.
    expect(run.stdout.split('\n')).toContain(
      '::error title=data-files-not-public (critical),file=permissions/data-files/42.yaml,line=2,col=1::dataFile/42: Data file 42 is publicly accessible',
    );
    // Built-in pack policies live with the action, not in the repository: a finding of one
    // without a manifest carries no file (not stacked on the steward.yaml line that names the pack).
    expect(run.commands.filter((c) => c.properties.file === 'steward.yaml')).toEqual([]);
    expect(run.commands.filter((c) => c.properties.file === undefined).length).toBeGreaterThan(0);
    // Every annotation with a file names a manifest of the workspace.
    for (const c of run.commands) if (c.properties.file) expect(c.properties.file).toMatch(/^permissions\//);
  });

  test('the step log shows the text report, as steward check prints it', () => {
    const lines = run.stdout.split('\n');
    expect(lines).toContain('data-files-not-public  critical  Data files are not public');
    expect(lines.some((l) => /^✖ fail: \d+ violations \(/.test(l))).toBe(true);
  });

  test('writes the verdict and the findings table to the job summary', () => {
    const lines = run.summary.split('\n');
    const report = JSON.parse(readFileSync(join(workspace, 'out/steward.json'), 'utf8')) as Report;
    const by = report.summary.bySeverity;
    expect(lines[0]).toBe(
      `### ❌ steward: fail: ${DEMO_VIOLATIONS} violations (${by.critical} critical, ${by.high} high, ${by.medium} medium, ${by.low} low, ${by.info} info), 1 waived, 0 errors in ${report.summary.policies} policies`,
    );
    expect(lines).toContain(`| high | ${by.high} |`);
    expect(lines).toEqual(
      expect.arrayContaining([
        '| data-files-not-public | critical | `dataFile/42` | Data file 42 is publicly accessible | USER Priya Shah (101) | `permissions/data-files/42.yaml:2:1` | violation |',
        '| queue-no-admin-for-users | high | `queue/q-finance-intake permissions[0]` | User Ana Ruiz (7) holds ADMIN on queue q-finance-intake | USER Priya Shah (101) | `permissions/queues/finance-intake.yaml:4:5` | violation |',
        '| queue-entries-grant-something | info | `queue/q-hr-requests permissions[1]` | USER Eva Novak (31) has an empty permission list on queue q-hr-requests | USER Eva Novak (31) | `permissions/queues/hr-requests.yaml:5:5` | violation |',
        // A live dataset: its owner from the platform; a policy of the built-in pack, so no location in the repository.
        '| certified-datasets-need-owner-group | high | `dataset/ds-hr-certified` | Certified dataset ds-hr-certified has no GROUP with OWNER access | USER Eva Novak (31) |  | violation |',
      ]),
    );
    // Grouped by policy, each in its own collapsible table.
    expect(lines.filter((l) => l.startsWith('<summary><code>'))).toHaveLength(new Set(report.findings.filter((f) => f.status !== 'error').map((f) => f.policy)).size);
    // One row per finding: the violations and the waived one.
    expect(lines.filter((l) => /\| (violation|waived: .*) \|$/.test(l))).toHaveLength(DEMO_VIOLATIONS + DEMO_WAIVED);
    expect(Buffer.byteLength(run.summary)).toBeLessThan(1024 * 1024);
  });
});

describe('the action with a baseline of today', () => {
  test('passes: every violation is known, none annotated, outputs say pass', async () => {
    const ws = demoWorkspace();
    try {
      // Record today's fingerprints in-process, as `steward check --write-baseline` does.
      await check({
        config: join(ws, 'steward.yaml'),
        cwd: ws,
        baseUrl: sandbox.baseUrl,
        workflowUrl: sandbox.workflowUrl,
        token: sandbox.token,
        workflowToken: sandbox.workflowToken,
        writeBaseline: 'baseline.json',
      });
      const passed = await runAction(ws, {
        'base-url': sandbox.baseUrl,
        'workflow-url': sandbox.workflowUrl,
        token: sandbox.token,
        'workflow-token': sandbox.workflowToken,
        baseline: 'baseline.json',
      });
      expect(passed.stderr).toBe('');
      expect(passed.code).toBe(0);
      expect(passed.outputs).toMatchObject({ gate: 'pass', errors: '0', waived: String(DEMO_WAIVED) });
      expect(passed.commands.filter((c) => c.command !== 'add-mask')).toEqual([]);
      expect(passed.summary).toContain('steward: pass');
    } finally {
      removeWorkspace(ws);
    }
  });
});

describe("the action's start", () => {
  test("loads no undici (~26 ms of CPU on Node 24): the client's fetch and headers are its own, node:http is required, not imported", async () => {
    const ws = demoWorkspace();
    try {
      // A preload that writes, at exit, which of Node's modules named undici the run loaded.
      const probe = join(ws, 'probe.cjs');
      const seen = join(ws, 'undici.json');
      writeFileSync(probe, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.moduleLoadList.filter((m) => m.includes('undici')))));\n`);
      const probed = await runAction(ws, { 'base-url': sandbox.baseUrl, 'workflow-url': sandbox.workflowUrl, token: sandbox.token, 'workflow-token': sandbox.workflowToken }, { NODE_OPTIONS: `--require=${probe}` });
      // Every request sent and answered (the demo's verdict, no error), and no undici loaded for them.
      expect([probed.stderr, probed.code, probed.outputs.errors]).toEqual(['', 1, '0']);
      expect(JSON.parse(readFileSync(seen, 'utf8'))).toEqual([]);
    } finally {
      removeWorkspace(ws);
    }
  });
});
