// Text from outside steward (an API's error message, a workflow's name, a stored report) can
// neither drive the terminal (escape sequences, bidi overrides) nor the runner (a line starting
// with `::`, or `##[` anywhere) on any path: the "could not evaluate" block, text wrapping,
// `steward diff`, and the Action's annotations and job summary.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { demoWorkspace, removeWorkspace, runAction } from '../action/run-action.js';
import { runCli, sandboxEnv, tempDir } from '../cli/helpers.js';
import { sampleFinding, sampleReport } from '../history/sample-report.js';

const HOSTILE = 'boom\u001b[2J\u001b]0;owned\u0007 \u202eevil\n::error title=x::pwned ##[set-output name=a]b';

/** No character in `text` a terminal would act on, or that reorders what is read. */
function expectNoControls(text: string): void {
  expect(text).not.toMatch(/[\u001b\u0007\u009b\u202e]/);
}

/** Nothing in `text` a terminal or a runner would act on (text printed as lines of a step log). */
function expectInert(text: string): void {
  expectNoControls(text);
  expect(text.split('\n').filter((l) => /^\s*::/.test(l))).toEqual([]);
  expect(text).not.toContain('##[');
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
afterEach(() => sandbox.resetCounts());

function projectWithWorkflowPolicy(): string {
  const dir = tempDir('steward-filter-');
  writeFileSync(
    path.join(dir, 'named.yaml'),
    `policies:
  - id: workflow-names-reviewed
    title: Workflow names are reviewed
    description: Quotes the API's name.
    severity: high
    resource: workflow
    assert: "false"
    message: "{{ resource.name != null ? resource.name : '' }}"
`,
  );
  writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [named.yaml]\n');
  return dir;
}

describe('API text on stderr and stdout', () => {
  it('an API error message in the "could not evaluate" block is inert, in every format', async () => {
    for (const format of ['text', 'json', 'github']) {
      sandbox.scriptFault('getCalculatedFieldStatistics', { status: 400, body: JSON.stringify({ message: HOSTILE }) });
      const r = await runCli(['check', '--config', 'demo/steward.yaml', '--only', 'calculated-fields-valid', '--format', format], { env: sandboxEnv(sandbox) });
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('steward: could not evaluate 1 policy');
      expectInert(r.stderr);
      expect(r.stderr).toContain('\\u001b[2J');
    }
  });

  it('text wrapping never starts a line with an API-chosen ::…::', async () => {
    const dir = projectWithWorkflowPolicy();
    const original = sandbox.state.workflows[0].name;
    sandbox.state.workflows[0].name = `${'word '.repeat(13)}::error title=x::pwned and ##[warning]y`;
    try {
      const r = await runCli(['check', '--format', 'text'], { cwd: dir, env: sandboxEnv(sandbox) });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('pwned');
      expectInert(r.stdout);
      expectInert(r.stderr);
    } finally {
      sandbox.state.workflows[0].name = original;
    }
  });
});

describe('steward diff', () => {
  it('prints messages from stored JSON reports inert', async () => {
    const dir = tempDir('steward-filter-diff-');
    const before: Report = sampleReport(0, undefined, '2026-11-01T00:00:00.000Z');
    const after: Report = { ...sampleReport(1, undefined, '2026-11-02T00:00:00.000Z'), findings: [{ ...sampleFinding(0), message: HOSTILE }] };
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify(before));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify(after));
    const r = await runCli(['diff', 'a.json', 'b.json'], { cwd: dir });
    expect(r.stdout).toContain('pwned');
    expectInert(r.stdout);
  });
});

describe('the Action', () => {
  it('annotations, the job summary and the step log carry API text inert', async () => {
    const ws = demoWorkspace();
    writeFileSync(
      path.join(ws, 'named.yaml'),
      'policies:\n  - id: workflow-names-reviewed\n    title: Workflow names are reviewed\n    description: Quotes the name.\n    severity: high\n    resource: workflow\n    assert: "false"\n    message: "{{ resource.name != null ? resource.name : \\"\\" }}"\n',
    );
    writeFileSync(path.join(ws, 'steward.yaml'), 'policies: [named.yaml]\n');
    const original = sandbox.state.workflows[0].name;
    sandbox.state.workflows[0].name = HOSTILE;
    try {
      const run = await runAction(ws, { 'base-url': sandbox.baseUrl, 'workflow-url': sandbox.workflowUrl, token: sandbox.token });
      expect(run.code).toBe(1);
      // An annotation is one workflow command whatever its message holds (newlines go as %0A);
      // the summary is a file, not the log: both must show no control character or bidi override.
      const annotation = run.commands.find((c) => c.command === 'error' && c.message.includes('pwned'));
      expect(annotation).toBeDefined();
      expectNoControls(annotation!.message);
      expect(annotation!.message).toContain('\\u202eevil');
      expect(run.summary).toContain('pwned');
      expectNoControls(run.summary);
      // The step log: no line of it became a command of the API's choosing.
      expect(run.commands.filter((c) => c.properties.title === 'x')).toEqual([]);
    } finally {
      sandbox.state.workflows[0].name = original;
      removeWorkspace(ws);
    }
  });
});
