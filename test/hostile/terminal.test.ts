// Text the API returns reaches a terminal (text format) or a CI log (github annotations): an
// escape sequence in a user's name must not set the window title, clear the screen or reorder
// what is read. It is shown as its \u escape. The CLI as a user runs it, against a sandbox.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { visibleControls } from '../../src/core/printable.js';
import { runCli, sandboxEnv, tempDir } from '../cli/helpers.js';

const HOSTILE_NAME = '\u001b]0;pwned\u0007\u001b[2J\u009b31mMallory\u202eevil\r';
let sandbox: Sandbox;
let dir: string;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'secret-token-for-terminal-tests' });
  sandbox.state.datasetAccess.set('ds-evil', { list: [{ type: 'USER', id: '66', name: HOSTILE_NAME, accessLevel: 'CAN_VIEW' }] });
  dir = tempDir('steward-terminal-');
  writeFileSync(
    path.join(dir, 'p.yaml'),
    [
      'policies:',
      '  - id: no-direct-viewers',
      '    title: Datasets are shared with groups',
      '    severity: high',
      '    resource: dataset',
      "    assert: resource.access.list.all(e, e.type == 'GROUP')",
      '    message: "Dataset {{ resource.id }} is shared with {{ resource.access.list[0].name }}"',
      '',
    ].join('\n'),
  );
  writeFileSync(path.join(dir, 'steward.yaml'), 'policies: [p.yaml]\nscope:\n  datasets: [ds-evil]\n');
});
afterAll(() => sandbox.close());

const SHOWN = 'Dataset ds-evil is shared with \\u001b]0;pwned\\u0007\\u001b[2J\\u009b31mMallory\\u202eevil\\u000d';

describe('control characters from the API', () => {
  it('are shown as escapes in the text report', async () => {
    const r = await runCli(['check', '--format', 'text'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    expect(r.stdout.replace(/\s+/g, '')).toContain(SHOWN.replace(/\s+/g, ''));
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('are shown as escapes in GitHub annotations', async () => {
    const r = await runCli(['check', '--format', 'github'], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(SHOWN);
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
  });

  it('stay as they were in the JSON report (data for programs, not a terminal)', async () => {
    const r = await runCli(['check', '--format', 'json'], { cwd: dir, env: sandboxEnv(sandbox) });
    const report = JSON.parse(r.stdout) as { findings: { message: string }[] };
    expect(report.findings.map((f) => f.message)).toEqual([`Dataset ds-evil is shared with ${HOSTILE_NAME}`]);
  });

  it('newline and tab are kept; everything else that moves a terminal is escaped', () => {
    expect(visibleControls('a\tb\nc\u0000d\u007fe\u2066f')).toBe('a\tb\nc\\u0000d\\u007fe\\u2066f');
  });
});
