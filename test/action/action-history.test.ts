// The Action with a history file (what the cache steps of the scheduled workflow carry between
// runs): the second run's job summary shows new / fixed / reopened and a Mermaid trend, and the
// HTML report is written where `html-file` says.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { PLANTED } from '../cli/helpers.js';
import { type ActionRun, demoWorkspace, removeWorkspace, runAction } from './run-action.js';

let sandbox: Sandbox;
let workspace: string;
const runs: ActionRun[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-action-history-41c2' });
  workspace = demoWorkspace();
  const inputs = {
    config: 'steward.yaml',
    'base-url': sandbox.baseUrl,
    'workflow-url': sandbox.workflowUrl,
    token: sandbox.token,
    history: '.steward/history.sqlite',
    'html-file': 'out/steward.html',
  };
  runs.push(await runAction(workspace, inputs));
  sandbox.state.schedules.find((s) => s.id === 9004)!.schedule.timezone = 'Europe/Berlin';
  runs.push(await runAction(workspace, inputs));
}, 120_000);
afterAll(async () => {
  removeWorkspace(workspace);
  await sandbox.close();
});

describe('the action with a run history', () => {
  test('creates the history in a new folder and records both runs', () => {
    expect(runs.map((r) => r.code)).toEqual([1, 1]);
    expect(existsSync(join(workspace, '.steward/history.sqlite'))).toBe(true);
    expect(runs[0]!.summary).toContain(`**History .steward/history.sqlite (run 1): ${PLANTED.length + 1} new, 0 open, 0 reopened, 0 fixed**`);
  });

  test("the second run's summary names the fixed finding and draws the trend", () => {
    const summary = runs[1]!.summary;
    expect(summary).toContain(`**History .steward/history.sqlite (run 2): 0 new, ${PLANTED.length} open, 0 reopened, 1 fixed**`);
    expect(summary).toMatch(/^- fixed: schedule-timezone-valid reportSchedule\/9004: .+ \(open since \d{4}-\d{2}-\d{2}\)$/m);
    expect(summary).toContain(['```mermaid', 'xychart-beta', '  title "Violations per run"', '  x-axis ["#1", "#2"]', `  y-axis "violations" 0 --> ${PLANTED.length}`, `  line [${PLANTED.length}, ${PLANTED.length - 1}]`, '```'].join('\n'));
  });

  test('writes the HTML report and names it in the outputs; no token in it', () => {
    const file = runs[1]!.outputs['html-file']!;
    expect(file).toBe(join(workspace, 'out/steward.html'));
    const html = readFileSync(file, 'utf8');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`data-run="2" data-violations="${PLANTED.length - 1}"`);
    expect(html).not.toContain(sandbox.token);
  });
});
