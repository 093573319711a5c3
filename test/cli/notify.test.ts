// Notifications on change against local receivers: three runs with a history (everything new;
// nothing changed; one fixed and one new) send exactly 1, 0 and 1 message per channel with the
// right items; the generic webhook's signature verifies and its body matches the published
// schema; a receiver answering 500 costs a warning and a record, never the exit code; the URLs
// and the key never appear in any output.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../src/core/model.js';
import { NOTIFICATION_SCHEMA } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';
import { copyDemo, runCli, sandboxEnv } from './helpers.js';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: unknown;
}

let sandbox: Sandbox;
let receiver: Server;
let base = '';
const received: Received[] = [];
/** Paths answered 500 (a receiver that is down). */
const failing = new Set<string>();
const SECRET = 'whsec-notify-test-0001';

beforeAll(async () => {
  sandbox = await startSandbox();
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => {
      raw += d;
    });
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, raw, body: JSON.parse(raw) });
      res.statusCode = failing.has(req.url ?? '') ? 500 : 200;
      res.end(res.statusCode === 200 ? 'ok' : 'down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(async () => {
  await sandbox.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function project(): string {
  const dir = copyDemo();
  const config = readFileSync(path.join(dir, 'steward.yaml'), 'utf8').replace(/^history:.*$/m, '');
  writeFileSync(
    path.join(dir, 'steward.yaml'),
    `${config}\nhistory: true\nnotify:\n  - { type: slack, url: env:STEWARD_SLACK_URL }\n  - { type: teams, url: env:STEWARD_TEAMS_URL }\n  - { type: webhook, url: env:STEWARD_WEBHOOK_URL, secret: env:STEWARD_WEBHOOK_SECRET }\n`,
  );
  return dir;
}

const env = () => ({
  ...sandboxEnv(sandbox),
  STEWARD_SLACK_URL: `${base}/slack`,
  STEWARD_TEAMS_URL: `${base}/teams`,
  STEWARD_WEBHOOK_URL: `${base}/hook`,
  STEWARD_WEBHOOK_SECRET: SECRET,
  GITHUB_SERVER_URL: 'https://github.example.com',
  GITHUB_REPOSITORY: 'acme/governance',
  GITHUB_RUN_ID: '42',
});

const ONLY = ['--only', 'schedule-timezone-valid'];
const schedule = (id: number) => sandbox.state.schedules.find((s) => s.id === id)!;

async function run(dir: string) {
  const before = received.length;
  const r = await runCli(['check', ...ONLY, '--format', 'json'], { cwd: dir, env: env() });
  return { r, report: JSON.parse(r.stdout) as Report, messages: received.slice(before) };
}

describe('notify: on change', () => {
  it('three runs send 1, 0 and 1 message per channel with the right items; the webhook signature verifies; no URL or key printed', async () => {
    const dir = project();
    const first = await run(dir);
    expect(first.r.code).toBe(1);
    expect(first.messages.map((m) => m.path).sort()).toEqual(['/hook', '/slack', '/teams']);
    const hook = first.messages.find((m) => m.path === '/hook')!;
    expect(hook.headers['x-steward-signature-256']).toBe(`sha256=${createHmac('sha256', SECRET).update(hook.raw).digest('hex')}`);
    const ajv = new Ajv({ allErrors: true });
    // ajv-formats is CommonJS: under NodeNext its default import is the module object.
    (((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv)(ajv);
    const valid = ajv.compile(NOTIFICATION_SCHEMA);
    expect(valid(hook.body), JSON.stringify(valid.errors)).toBe(true);
    const body = hook.body as { counts: Record<string, number>; changes: { change: string; resource: string }[]; runUrl: string };
    expect(body.counts).toEqual({ new: first.report.summary.violations, reopened: 0, fixed: 0 });
    expect(body.runUrl).toBe('https://github.example.com/acme/governance/actions/runs/42');
    const slack = first.messages.find((m) => m.path === '/slack')!.body as { text: string; blocks: { type: string }[] };
    expect(slack.text).toMatch(/^steward on http:\/\/127\.0\.0\.1:\d+: \d+ new, 0 reopened, 0 fixed \(fail, \d+ violations\)$/);
    expect(slack.blocks.map((b) => b.type)).toEqual(['header', 'section', 'actions']);
    const teams = first.messages.find((m) => m.path === '/teams')!.body as { type: string; attachments: { contentType: string; content: { type: string } }[] };
    expect([teams.type, teams.attachments[0].contentType, teams.attachments[0].content.type]).toEqual(['message', 'application/vnd.microsoft.card.adaptive', 'AdaptiveCard']);
    expect(first.report.notifications?.map((n) => [n.type, n.destination, n.sent, n.attempts])).toEqual([
      ['slack', 'env:STEWARD_SLACK_URL', true, 1],
      ['teams', 'env:STEWARD_TEAMS_URL', true, 1],
      ['webhook', 'env:STEWARD_WEBHOOK_URL', true, 1],
    ]);

    const second = await run(dir);
    expect(second.messages).toEqual([]);
    expect(second.report.notifications?.map((n) => [n.sent, n.error])).toEqual([
      [false, 'nothing changed since the previous run'],
      [false, 'nothing changed since the previous run'],
      [false, 'nothing changed since the previous run'],
    ]);

    const was9004 = schedule(9004).schedule.timezone;
    schedule(9004).schedule.timezone = 'Europe/Berlin';
    const was9001 = schedule(9001).schedule.timezone;
    schedule(9001).schedule.timezone = 'Atlantis/Lost';
    try {
      const third = await run(dir);
      expect(third.messages.map((m) => m.path).sort()).toEqual(['/hook', '/slack', '/teams']);
      const changes = (third.messages.find((m) => m.path === '/hook')!.body as { changes: { change: string; resource: string }[] }).changes;
      expect(changes.map((c) => [c.change, c.resource])).toEqual([
        ['new', 'reportSchedule/9001'],
        ['fixed', 'reportSchedule/9004'],
      ]);
      const outputs = [first, second, third].map((x) => x.r.stdout + x.r.stderr).join('\n');
      for (const secret of [SECRET, `${base}/slack`, `${base}/hook`]) expect(outputs).not.toContain(secret);
    } finally {
      schedule(9004).schedule.timezone = was9004;
      schedule(9001).schedule.timezone = was9001;
    }
  });

  it('a receiver answering 500: retried, then a warning and a record; the exit code is the run\'s', async () => {
    const dir = project();
    failing.add('/slack');
    try {
      const before = received.length;
      const r = await runCli(['check', ...ONLY, '--format', 'json'], { cwd: dir, env: env() });
      expect(r.code).toBe(1);
      expect(received.slice(before).filter((m) => m.path === '/slack')).toHaveLength(3);
      expect(r.stderr).toContain('steward: notify slack (env:STEWARD_SLACK_URL): not delivered after 3 attempts: 500 Internal Server Error\n');
      const report = JSON.parse(r.stdout) as Report;
      expect(report.notifications?.[0]).toEqual({ type: 'slack', destination: 'env:STEWARD_SLACK_URL', sent: false, attempts: 3, status: 500, items: expect.any(Number), error: 'not delivered after 3 attempts: 500 Internal Server Error' });
      expect(report.notifications?.slice(1).map((n) => n.sent)).toEqual([true, true]);
      expect(r.stdout + r.stderr).not.toContain(base);
    } finally {
      failing.delete('/slack');
    }
  });

  it('steward notify --from REPORT --dry-run prints the messages and sends nothing; a URL in the file is refused', async () => {
    const dir = project();
    await runCli(['check', ...ONLY, '--output', 'json=r1.json', '--quiet'], { cwd: dir, env: env() });
    const before = received.length;
    const dry = await runCli(['notify', '--from', 'r1.json', '--dry-run'], { cwd: dir, env: env() });
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout) as { type: string; destination: string; headers: Record<string, string> }[];
    expect(planned.map((p) => [p.type, p.destination])).toEqual([
      ['slack', 'env:STEWARD_SLACK_URL'],
      ['teams', 'env:STEWARD_TEAMS_URL'],
      ['webhook', 'env:STEWARD_WEBHOOK_URL'],
    ]);
    expect(received.length).toBe(before);
    expect(dry.stdout).not.toContain(base);
    writeFileSync(path.join(dir, 'steward.yaml'), `${readFileSync(path.join(dir, 'steward.yaml'), 'utf8').replace('url: env:STEWARD_SLACK_URL', `url: ${base}/slack`)}`);
    const inline = await runCli(['notify', '--from', 'r1.json'], { cwd: dir, env: env() });
    expect(inline.code).toBe(2);
    expect(inline.stderr).toMatch(/^steward\.yaml:\d+:\d+: notify\[0\]\.url must be env:NAME, the environment variable that holds it \(a webhook URL or key is a secret: never in this file\)\n/);
    expect(inline.stderr).not.toContain(base);
  });

  it('steward notify with a config that names no channel is exit 2: it would succeed having told no one', async () => {
    const dir = project();
    await runCli(['check', ...ONLY, '--output', 'json=r1.json', '--quiet'], { cwd: dir, env: env() });
    writeFileSync(path.join(dir, 'steward.yaml'), readFileSync(path.join(dir, 'steward.yaml'), 'utf8').replace(/^notify:[\s\S]*$/m, ''));
    const before = received.length;
    const r = await runCli(['notify', '--from', 'r1.json'], { cwd: dir, env: env() });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', 'steward.yaml: names no notify: channels: nothing to send the report to (README, Notifications on change)\nsteward: bad input\n']);
    expect(received.length).toBe(before);
  });
});

describe('notify: teams routed by the owners: map', () => {
  it('each channel sends only the changes routed to its teams', async () => {
    const dir = copyDemo();
    const config = readFileSync(path.join(dir, 'steward.yaml'), 'utf8').replace(/^history:.*$/m, '');
    writeFileSync(
      path.join(dir, 'steward.yaml'),
      `${config}\nhistory: true\nowners:\n  - { team: emea, owners: [101] }\n  - { team: ops, policies: ["schedule-*"] }\nnotify:\n  - { type: webhook, url: env:STEWARD_EMEA_URL, teams: [emea] }\n  - { type: webhook, url: env:STEWARD_OPS_URL, teams: [ops] }\n`,
    );
    const teamEnv = { ...env(), STEWARD_EMEA_URL: `${base}/emea`, STEWARD_OPS_URL: `${base}/ops` };
    const routed = async () => {
      const before = received.length;
      const r = await runCli(['check', ...ONLY, '--format', 'json'], { cwd: dir, env: teamEnv });
      const messages = received.slice(before);
      const changes = (p: string) => messages.filter((m) => m.path === p).map((m) => (m.body as { changes: { change: string; resource: string; team: string; owner: string }[] }).changes);
      return { report: JSON.parse(r.stdout) as Report, emea: changes('/emea'), ops: changes('/ops') };
    };
    // Run 1: schedule 9004 (owned by user 101) is new: emea only.
    const first = await routed();
    expect(first.emea).toEqual([[{ change: 'new', policy: 'schedule-timezone-valid', severity: 'medium', resource: 'reportSchedule/9004', message: expect.any(String), owner: 'USER Priya Shah (101)', team: 'emea' }]]);
    expect(first.ops).toEqual([]);
    expect(first.report.notifications?.map((n) => [n.destination, n.sent, n.error])).toEqual([
      ['env:STEWARD_EMEA_URL', true, null],
      ['env:STEWARD_OPS_URL', false, 'nothing changed since the previous run'],
    ]);
    // Run 2: schedule 9003 (owned by user 77) breaks too: routed by the policy glob, ops only.
    const was = schedule(9003).schedule.timezone;
    schedule(9003).schedule.timezone = 'Mars/Olympus';
    try {
      const second = await routed();
      expect(second.emea).toEqual([]);
      expect(second.ops.map((m) => m.map((c) => [c.change, c.resource, c.team]))).toEqual([[['new', 'reportSchedule/9003', 'ops']]]);
    } finally {
      schedule(9003).schedule.timezone = was;
    }
  });
});
