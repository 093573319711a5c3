// Governed waivers: approver/ticket/risk/created, required by the config when it says so; every
// active waiver listed; one ending within waiverWarningDays warned about in every format; and
// `steward waive` writing starter waivers for a report's violations, comments kept.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputError } from '../../src/core/problem.js';
import type { Report } from '../../src/core/model.js';
import { parseWaivers } from '../../src/engine/waivers.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv } from '../cli/helpers.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ token: 'tok-governed-waivers-1' });
});
afterAll(() => sandbox.close());

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

describe('governed waiver fields', () => {
  const text = (extra: string) =>
    `waivers:\n  - policy: p\n    resource: r\n    reason: why\n    owner: me\n    expires: 2027-01-31\n${extra}`;

  it('are read when present; a required one missing is bad input at its waiver', () => {
    const [w] = parseWaivers(text('    approver: ciso@acme.example\n    ticket: RISK-42\n    risk: medium\n    created: 2026-11-01\n'), 'w.yaml');
    expect(w).toMatchObject({ approver: 'ciso@acme.example', ticket: 'RISK-42', risk: 'medium', created: '2026-11-01' });
    let problems: string[] = [];
    try {
      parseWaivers(text('    ticket: RISK-42\n    risk: severe\n'), 'w.yaml', { allowCatchAll: true, require: ['approver', 'ticket'] });
    } catch (e) {
      problems = (e as InputError).problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`);
    }
    expect(problems[0]).toMatch(/^w\.yaml:8:11: .*risk.*(low|medium|high)/);
    try {
      parseWaivers(text('    ticket: RISK-42\n    created: 2027-02-01\n'), 'w.yaml', { allowCatchAll: true, require: ['approver', 'ticket'] });
    } catch (e) {
      problems = (e as InputError).problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`);
    }
    expect(problems).toEqual([
      'w.yaml:2:5: waiver p r: "approver" is required (waiverRules.require)',
      'w.yaml:8:14: created 2027-02-01 is after expires 2027-01-31',
    ]);
  });
});

describe('a waiver ending in 10 days', () => {
  it('is warned about in text, JSON, markdown and github output, and listed as active', async () => {
    const dir = copyDemo();
    const file = path.join(dir, 'waivers.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('expires: 2099-12-31', `expires: ${inDays(10)}\n    ticket: RISK-7`));
    const run = async (format: string) =>
      (await runCli(['check', '--config', 'steward.yaml', '--only', 'queue-no-admin-for-users', '--format', format], { cwd: dir, env: sandboxEnv(sandbox) })).stdout;
    const warning = `Waiver queue-no-admin-for-users q-support-escalations#15 ends on ${inDays(10)} (in 10 days; owner governance@acme.example, ticket RISK-7): renew it or fix the finding.`;
    expect(await run('text')).toContain(`Waivers ending soon (renew them or fix the findings):\n  ! queue-no-admin-for-users q-support-escalations#15 until ${inDays(10)}`);
    const json = JSON.parse(await run('json')) as Report;
    expect(json.waivers.expiring.map((w) => [w.resource, w.item, w.expires, w.ticket])).toEqual([['q-support-escalations', '15', inDays(10), 'RISK-7']]);
    expect(json.waivers.active).toHaveLength(1);
    const md = await run('markdown');
    expect(md).toContain(`**Waivers ending soon (renew them or fix the findings)**\n\n- queue-no-admin-for-users q-support-escalations\\#15 until ${inDays(10)}`);
    expect(md).toContain('| queue-no-admin-for-users q-support-escalations\\#15 | governance\\@acme.example |');
    expect(await run('github')).toContain(`::warning file=waivers.yaml,line=3,col=5,title=waiver ending soon::${warning}`);
  });

  it('31 days away is not warned about; waiverWarningDays: 40 makes it so', async () => {
    const dir = copyDemo();
    const file = path.join(dir, 'waivers.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('expires: 2099-12-31', `expires: ${inDays(31)}`));
    const expiring = async () =>
      (JSON.parse((await runCli(['check', '--config', 'steward.yaml', '--only', 'queue-no-admin-for-users', '--format', 'json'], { cwd: dir, env: sandboxEnv(sandbox) })).stdout) as Report).waivers.expiring.length;
    expect(await expiring()).toBe(0);
    writeFileSync(path.join(dir, 'steward.yaml'), `${readFileSync(path.join(dir, 'steward.yaml'), 'utf8')}waiverWarningDays: 40\n`);
    expect(await expiring()).toBe(1);
  });
});

describe('steward waive', () => {
  it('appends a waiver per violation with comments kept; the violations are then waived; a re-run adds none', async () => {
    const dir = copyDemo();
    const env = sandboxEnv(sandbox);
    const only = ['--only', 'data-files-not-public', '--only', 'queue-no-admin-for-users'];
    const first = await runCli(['check', '--config', 'steward.yaml', ...only, '--format', 'json'], { cwd: dir, env });
    writeFileSync(path.join(dir, 'report.json'), first.stdout);
    const violations = (JSON.parse(first.stdout) as Report).findings.filter((f) => f.status === 'violation');
    expect(violations.length).toBe(3);

    const args = ['waive', '--from', 'report.json', '--owner', 'team@acme.example', '--reason', 'adopting the pack', '--expires', inDays(60), '--ticket', 'CHG-9'];
    const waived = await runCli(args, { cwd: dir, env });
    expect([waived.code, waived.stdout]).toEqual([0, 'appended 3 waivers to waivers.yaml\n']);
    const text = readFileSync(path.join(dir, 'waivers.yaml'), 'utf8');
    expect(text.startsWith('# Accepted exceptions. Each needs a reason, an owner and an expiry date.\nwaivers:\n')).toBe(true);
    expect(text).toContain('item: "15" # the on-call break-glass account');
    expect(text).toContain(`  - policy: data-files-not-public\n    resource: "42"\n    reason: adopting the pack\n    owner: team@acme.example\n    expires: ${inDays(60)}\n    ticket: CHG-9\n    created: ${inDays(0)}\n`);

    const after = await runCli(['check', '--config', 'steward.yaml', ...only, '--format', 'json'], { cwd: dir, env });
    expect(after.code).toBe(0);
    expect((JSON.parse(after.stdout) as Report).summary).toMatchObject({ violations: 0, waived: 4 });
    const again = await runCli(args, { cwd: dir, env });
    expect(again.stdout).toBe('appended 0 waivers to waivers.yaml (3 already waived)\n');
  });

  it('an expiry that is not in the future is exit 2, the file untouched', async () => {
    const dir = copyDemo();
    writeFileSync(path.join(dir, 'report.json'), '{"findings": []}');
    const before = readFileSync(path.join(dir, 'waivers.yaml'), 'utf8');
    const r = await runCli(['waive', '--from', 'report.json', '--owner', 'x', '--reason', 'y', '--expires', inDays(0)], { cwd: dir, env: sandboxEnv(sandbox) });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toMatch(/^--expires: \d{4}-\d{2}-\d{2} is not after today/);
    expect(readFileSync(path.join(dir, 'waivers.yaml'), 'utf8')).toBe(before);
  });

  it('a date that is no date and an empty owner or reason are named as the flags they came from, the file untouched', async () => {
    const dir = copyDemo();
    const before = readFileSync(path.join(dir, 'waivers.yaml'), 'utf8');
    const waiveWith = (owner: string, reason: string, expires: string) => runCli(['waive', '--from', 'report.json', '--owner', owner, '--reason', reason, '--expires', expires], { cwd: dir, env: sandboxEnv(sandbox) });
    const date = await waiveWith('x', 'y', '2031-13-45');
    expect([date.code, date.stderr]).toEqual([2, '--expires: 2031-13-45 is not a date (YYYY-MM-DD)\nsteward: bad input\n']);
    const empty = await waiveWith(' ', '', inDays(30));
    expect([empty.code, empty.stderr]).toEqual([2, '--owner: must name who answers for the waivers\n--reason: must say why the violations are accepted for now\nsteward: 2 input problems\n']);
    expect(readFileSync(path.join(dir, 'waivers.yaml'), 'utf8')).toBe(before);
  });
});
