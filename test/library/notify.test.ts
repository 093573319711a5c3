// What a notification says changed (digestOf), on the report of one instance and of several:
// with several, the same resource id may be on each, so every change names its instance. What
// sendNotifications does with each channel, against a receiver on 127.0.0.1: skipped and why,
// delivered, retried, refused, redirected (not delivered), unreachable, out of time; every
// outcome a record, every failure a warning that names no URL.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NotifyTarget } from '../../src/config/index.js';
import type { Finding, FixedFinding, Report } from '../../src/core/model.js';
import { mergeReports, stampInstance } from '../../src/library/merge.js';
import { SecretSet } from '../../src/core/redact.js';
import { digestOf, noAnswer, notifyFrom, sendNotifications } from '../../src/library/notify.js';
import { NOTIFY_MAX_ITEMS, notificationPayload } from '../../src/library/notify-payloads.js';
import { makeFinding, makeReport } from '../fixtures/report.js';
import { tempDir } from '../cli/helpers.js';

const FIXED_AT = '2026-03-02T09:15:00.000Z';

/** One instance's run: q-finance new there, q-hr fixed there. */
const run = (url: string): Report =>
  makeReport({
    instance: url,
    findings: [makeFinding({ resource: { kind: 'queue', id: 'q-finance', name: null }, path: 'permissions[0]', lifecycle: 'new' })],
    fixed: [{ policy: 'queue-no-admin-for-users', severity: 'high', resource: { kind: 'queue', id: 'q-hr', name: null }, fingerprint: 'f-hr', message: 'm', firstSeen: FIXED_AT, fixedAt: FIXED_AT }],
  });
const changes = (r: Report) => digestOf(r, {}).changes.map((c) => `${c.change} ${c.resource}`);

describe('digestOf', () => {
  it('one instance: each change is its resource', () => {
    expect(changes(stampInstance(run('https://prod.example.com'), 'prod'))).toEqual(['new queue/q-finance permissions[0]', 'fixed queue/q-hr']);
  });

  it('several instances: each change names its instance', () => {
    const merged = mergeReports([stampInstance(run('https://prod.example.com'), 'prod'), stampInstance(run('https://stg.example.com'), 'staging')]);
    expect(changes(merged).sort()).toEqual([
      'fixed prod: queue/q-hr',
      'fixed staging: queue/q-hr',
      'new prod: queue/q-finance permissions[0]',
      'new staging: queue/q-finance permissions[0]',
    ]);
    expect(digestOf(merged, {}).instance).toBe('prod, staging');
  });
});

describe('sendNotifications', () => {
  it('what it sends holds no form of a secret an instance echoed into an owner, a path or a message; the signature is of what is sent', async () => {
    const token = 'tok-8c1f2e9a7d3b-secret';
    const secrets = SecretSet.of(token, 'hook-key-4d2c9b1e');
    const report = makeReport({
      findings: [
        makeFinding({
          lifecycle: 'new',
          path: `permissions[${token}]`,
          message: `echoed ${JSON.stringify(token).slice(1, -1)} and ${Buffer.from(`svc:${token}`).toString('base64')}`,
          owner: { type: 'USER', id: '7', name: `Ana ${encodeURIComponent(token)}`, email: null, state: 'active' },
        }),
      ],
    });
    const target = { type: 'webhook' as const, url: { variable: 'HOOK', value: 'http://127.0.0.1:9/hook' }, secret: { variable: 'KEY', value: 'hook-key-4d2c9b1e' }, on: 'always' as const, teams: null, location: { file: 'steward.yaml', line: 1, column: 1 } };
    const sent = await sendNotifications(report, [target], { env: {}, dryRun: true, redact: (t) => secrets.redact(t) });
    const [planned] = sent.planned;
    const body = JSON.stringify(planned!.body);
    expect(body).not.toContain(token);
    expect(body).not.toContain(Buffer.from(`svc:${token}`).toString('base64').slice(4, 20));
    expect((planned!.body as { changes: { resource: string; message: string; owner: string }[] }).changes.map((c) => [c.resource, c.message, c.owner])).toEqual([
      ['queue/q-finance-intake permissions[***]', 'echoed *** and c3ZjOn***', 'USER Ana *** (7)'],
    ]);
    const { createHmac } = await import('node:crypto');
    expect(planned!.headers['X-Steward-Signature-256']).toBe(`sha256=${createHmac('sha256', 'hook-key-4d2c9b1e').update(JSON.stringify(planned!.body)).digest('hex')}`);
  });
});

/** A fixed finding of `policy` on queue `id`, routed to `team`. */
const fixedOn = (id: string, team?: string | null): FixedFinding => ({ policy: 'p', severity: 'low', resource: { kind: 'queue', id, name: null }, fingerprint: `f-${id}`, message: `${id} fixed`, firstSeen: FIXED_AT, fixedAt: FIXED_AT, ...(team === undefined ? {} : { team }) });
const onQueue = (id: string, over: Partial<Finding>): Finding => makeFinding({ resource: { kind: 'queue', id, name: null }, path: null, message: `${id} breaks p`, ...over });

describe('digestOf: what a channel is told', () => {
  const report = makeReport({
    findings: [
      onQueue('q-new', { lifecycle: 'new', team: 'data', path: 'permissions[2]', owner: { type: 'USER', id: '7', name: 'Ana Ruiz', email: null, state: 'active' } }),
      onQueue('q-reopened', { lifecycle: 'reopened', team: 'ops' }),
      onQueue('q-open', { lifecycle: 'open', team: 'data' }),
      onQueue('q-waived', { lifecycle: 'new', status: 'waived', team: 'data' }),
      onQueue('q-unrouted', { lifecycle: 'new', team: null }),
    ],
    fixed: [fixedOn('q-fixed-data', 'data'), fixedOn('q-fixed-none')],
  });
  const listed = (teams: string[] | null) => digestOf(report, {}, teams).changes.map((c) => `${c.change} ${c.resource} ${c.owner ?? '-'} ${c.team ?? '-'}`);

  it('new and reopened violations and fixed findings, not those still open or waived; each with its owner and team', () => {
    expect(listed(null)).toEqual([
      'new queue/q-new permissions[2] USER Ana Ruiz (7) data',
      'reopened queue/q-reopened - ops',
      'new queue/q-unrouted - -',
      'fixed queue/q-fixed-data - data',
      'fixed queue/q-fixed-none - -',
    ]);
    expect(digestOf(report, {}).counts).toEqual({ new: 2, reopened: 1, fixed: 2 });
  });

  it('teams: only what the owners: map routes to one of them, fixed findings included', () => {
    expect(listed(['data'])).toEqual(['new queue/q-new permissions[2] USER Ana Ruiz (7) data', 'fixed queue/q-fixed-data - data']);
    expect(digestOf(report, {}, ['data', 'ops']).counts).toEqual({ new: 1, reopened: 1, fixed: 1 });
    expect(listed(['nobody'])).toEqual([]);
  });

  it("the run's link is the Actions run the variables name, and none unless all three are set", () => {
    const env = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/governance', GITHUB_RUN_ID: '42' };
    expect(digestOf(report, env).runUrl).toBe('https://github.com/acme/governance/actions/runs/42');
    for (const left of Object.keys(env)) expect(digestOf(report, { ...env, [left]: undefined }).runUrl).toBeNull();
    expect(digestOf(report, env)).toMatchObject({ instance: 'https://acme.example.com', startedAt: '2026-03-02T09:15:00.000Z', gate: report.summary.gate, violations: report.summary.violations });
  });
});

describe('sendNotifications against a receiver', () => {
  interface Hit {
    method: string;
    path: string;
    headers: IncomingHttpHeaders;
    body: string;
  }
  let server: Server;
  let base = '';
  /** Answers `HTTP/1.1 <code> ` with no reason phrase (HTTP allows none; undici's statusText is then empty). */
  let bare: TcpServer;
  let bareBase = '';
  const hits: Hit[] = [];
  /** Answers by path, one a request, the last repeated: `[503, 200]` is a 503, then 200s. */
  const answers: Record<string, number[]> = { '/ok': [200], '/flaky': [503, 503, 200], '/down': [500], '/refused': [400], '/moved': [302], '/choices': [300], '/accepted': [202] };
  const counts = new Map<string, number>();

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => {
        const at = req.url ?? '';
        hits.push({ method: req.method ?? '', path: at, headers: req.headers, body });
        if (at === '/slow') return; // never answers
        const n = counts.get(at) ?? 0;
        counts.set(at, n + 1);
        const list = answers[at] ?? [404];
        const status = list[Math.min(n, list.length - 1)]!;
        res.writeHead(status, status === 302 ? { location: `${base}/elsewhere` } : {});
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    bare = createTcpServer((socket) => {
      socket.once('data', (request) => {
        const code = /^POST \/(\d{3}) /.exec(request.toString('latin1'))?.[1] ?? '404';
        hits.push({ method: 'POST', path: `/${code}`, headers: {}, body: '' });
        socket.end(`HTTP/1.1 ${code} \r\nlocation: ${base}/elsewhere\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
      });
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    bareBase = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
    bare.close();
  });
  beforeEach(() => {
    hits.length = 0;
    counts.clear();
  });

  const KEY = 'hook-key-5e1d7c3a9b';
  const secrets = SecretSet.of(KEY);
  const target = (url: string | null, over: Partial<NotifyTarget> = {}): NotifyTarget => ({
    type: 'webhook',
    url: { variable: 'HOOK_URL', value: url },
    secret: { variable: 'HOOK_KEY', value: KEY },
    on: 'always',
    teams: null,
    location: { file: 'steward.yaml', line: 3, column: 5 },
    ...over,
  });
  const changed = (n: number): Report => makeReport({ findings: Array.from({ length: n }, (_, i) => onQueue(`q-${i}`, { lifecycle: 'new' })), history: { file: 'h.sqlite', run: 2, new: n, open: 0, reopened: 0, fixed: 0, trend: [] } });
  const send = (report: Report, targets: NotifyTarget[], over: { dryRun?: boolean; timeoutMs?: number } = {}) =>
    sendNotifications(report, targets, { env: {}, redact: (t) => secrets.redact(t), retryDelayMs: 1, ...over });
  const record = (over: Record<string, unknown>) => ({ type: 'webhook', destination: 'env:HOOK_URL', sent: false, attempts: 0, status: null, items: 3, error: null, ...over });

  it('no channel: nothing sent, nothing recorded', async () => {
    expect(await send(changed(3), [])).toEqual({ records: [], warnings: [], planned: [] });
  });

  it('delivered: one POST of the payload with its type and signature, recorded as sent; at most NOTIFY_MAX_ITEMS items', async () => {
    const report = changed(NOTIFY_MAX_ITEMS + 5);
    const sent = await send(report, [target(`${base}/ok`)]);
    expect(sent).toEqual({ records: [record({ sent: true, attempts: 1, status: 200, items: NOTIFY_MAX_ITEMS })], warnings: [], planned: [] });
    expect(hits.map((h) => [h.method, h.path, h.headers['content-type']])).toEqual([['POST', '/ok', 'application/json']]);
    expect(JSON.parse(hits[0]!.body)).toEqual(notificationPayload('webhook', digestOf(report, {})));
    expect(hits[0]!.headers['x-steward-signature-256']).toBe(`sha256=${createHmac('sha256', KEY).update(hits[0]!.body).digest('hex')}`);
    const unsigned = await send(changed(3), [target(`${base}/accepted`, { secret: null })]);
    expect(unsigned.records).toEqual([record({ sent: true, attempts: 1, status: 202 })]);
    expect(hits[1]!.headers['x-steward-signature-256']).toBeUndefined();
  });

  it('a 503 is retried: delivered at the third attempt', async () => {
    const sent = await send(changed(3), [target(`${base}/flaky`)]);
    expect(sent.records).toEqual([record({ sent: true, attempts: 3, status: 200 })]);
    expect(sent.warnings).toEqual([]);
    expect(hits.map((h) => h.path)).toEqual(['/flaky', '/flaky', '/flaky']);
  });

  it.each([
    ['a 500 after every attempt', '/down', 3, 500, 'not delivered after 3 attempts: 500 Internal Server Error'],
    ['a 400, not retried', '/refused', 1, 400, 'not delivered after 1 attempt: 400 Bad Request'],
    ['a redirect, not followed', '/moved', 1, 302, 'not delivered after 1 attempt: 302 Found, a redirect steward does not follow (the URL has moved)'],
    ['a 300, not followed', '/choices', 1, 300, 'not delivered after 1 attempt: 300 Multiple Choices, a redirect steward does not follow (the URL has moved)'],
    ['a 503 without a reason phrase', '/503', 3, 503, 'not delivered after 3 attempts: 503'],
    ['a 307 without a reason phrase', '/307', 1, 307, 'not delivered after 1 attempt: 307, a redirect steward does not follow (the URL has moved)'],
  ])('%s: not delivered, a warning naming the variable, not the URL', async (_, at, attempts, status, error) => {
    const sent = await send(changed(3), [target(`${/^\/\d+$/.test(at) ? bareBase : base}${at}`)]);
    expect(sent.records).toEqual([record({ attempts, status, error })]);
    expect(sent.warnings).toEqual([`notify webhook (env:HOOK_URL): ${error}`]);
    expect(hits.map((h) => h.path)).toEqual(Array(attempts).fill(at));
  });

  it('no answer: the network code, or the time each attempt waited; three attempts', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await send(changed(3), [target(`http://127.0.0.1:${port}/hook`)]);
    expect(refused.records).toEqual([record({ attempts: 3, error: 'not delivered after 3 attempts: ECONNREFUSED' })]);
    const slow = await send(changed(3), [target(`${base}/slow`)], { timeoutMs: 50 });
    expect(slow.records).toEqual([record({ attempts: 3, error: 'not delivered after 3 attempts: no answer within 0.05 s' })]);
    expect(slow.warnings).toEqual(['notify webhook (env:HOOK_URL): not delivered after 3 attempts: no answer within 0.05 s']);
  });

  it('skipped, and why: on: change without a history or with nothing changed, a URL or key not set, a dry run', async () => {
    const noHistory = { ...changed(3), history: null };
    const unchanged = makeReport({ findings: [onQueue('q-0', { lifecycle: 'open' })], history: changed(3).history });
    const sent = await send(noHistory, [target(`${base}/ok`, { on: 'change' }), target(`${base}/ok`, { on: 'always', url: { variable: 'HOOK_URL', value: null } })]);
    expect(sent.records).toEqual([
      record({ error: 'on: change needs a run history (history: true, or --history)' }),
      record({ error: 'HOOK_URL is not set' }),
    ]);
    expect(sent.warnings).toEqual([
      'notify webhook (env:HOOK_URL): on: change needs a run history (history: true, or --history): nothing sent',
      'notify webhook (env:HOOK_URL): HOOK_URL is not set: nothing sent',
    ]);
    const quiet = await send(unchanged, [target(`${base}/ok`, { on: 'change' })]);
    expect(quiet).toEqual({ records: [record({ items: 0, error: 'nothing changed since the previous run' })], warnings: [], planned: [] });
    const unkeyed = await send(changed(3), [target(`${base}/ok`, { secret: { variable: 'HOOK_KEY', value: null } })]);
    expect(unkeyed.warnings).toEqual(['notify webhook (env:HOOK_URL): its signing key HOOK_KEY is not set (an unsigned message would be accepted by no receiver that checks): nothing sent']);
    const dry = await send(changed(3), [target(`${base}/ok`, { on: 'change' })], { dryRun: true });
    expect(dry.records).toEqual([record({ error: 'dry run' })]);
    expect(dry.warnings).toEqual([]);
    expect(dry.planned.map((p) => [p.type, p.destination, p.headers['content-type'], Object.keys(p.headers)])).toEqual([['webhook', 'env:HOOK_URL', 'application/json', ['content-type', 'X-Steward-Signature-256']]]);
    expect(hits).toEqual([]);
  });

  it('on: always sends with nothing changed', async () => {
    const unchanged = makeReport({ findings: [onQueue('q-0', { lifecycle: 'open' })], history: changed(3).history });
    const sent = await send(unchanged, [target(`${base}/ok`)]);
    expect(sent.records).toEqual([record({ sent: true, attempts: 1, status: 200, items: 0 })]);
    expect(JSON.parse(hits[0]!.body)).toMatchObject({ counts: { new: 0, reopened: 0, fixed: 0 }, changes: [] });
  });
});

describe('noAnswer: why a request had none', () => {
  const chain = (...links: object[]) => links.reduceRight<unknown>((cause, link) => Object.assign(link, { cause }), undefined);
  it('the first network code along the causes, the time out, or no answer', () => {
    expect(noAnswer(chain(new Error('fetch failed'), new TypeError('fetch failed'), { code: 'ENOTFOUND' }), 10_000)).toBe('ENOTFOUND');
    expect(noAnswer(chain(new Error('fetch failed'), { name: 'TimeoutError', code: 23 }), 10_000)).toBe('no answer within 10 s');
    expect(noAnswer(chain(new Error('a'), new Error('b')), 10_000)).toBe('no answer');
    expect(noAnswer('a string thrown', 10_000)).toBe('no answer');
    // The chain as the client's reads walk it (api/retry.ts errorCodes): a cycle ends; the
    // innermost code, or an unreachable host's, names why.
    const cycle = new Error('fetch failed') as Error & { cause?: unknown };
    cycle.cause = cycle;
    expect(noAnswer(cycle, 10_000)).toBe('no answer');
    expect(noAnswer(chain(new Error('1'), new Error('2'), new Error('3'), { code: 'EFOURTH' }), 10_000)).toBe('EFOURTH');
    expect(noAnswer(chain({ code: 'UND_ERR_SOCKET' }, new Error('2'), { code: 'EPIPE' }), 10_000)).toBe('EPIPE');
    expect(noAnswer(chain({ code: 'ECONNREFUSED' }, { code: 'EPIPE' }), 10_000)).toBe('ECONNREFUSED');
  });
});

describe('notifyFrom', () => {
  it('a config naming no channel is bad input, before the report is read', async () => {
    const dir = tempDir('steward-notify-from-');
    writeFileSync(path.join(dir, 'steward.yaml'), 'instance:\n  baseUrl: https://acme.example.com\npolicies: []\n');
    const error = await notifyFrom({ from: 'missing.json', cwd: dir, env: {} }).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(error).toBe('steward.yaml: names no notify: channels: nothing to send the report to (README, Notifications on change)');
    const none = await notifyFrom({ from: 'missing.json', cwd: tempDir('steward-notify-from-'), env: {} }).then(
      () => null,
      (e: Error) => e.message,
    );
    // No steward.yaml at all (a config from the environment alone).
    expect(none).toBe('(config): names no notify: channels: nothing to send the report to (README, Notifications on change)');
  });

  it('a config with a channel: what the run that wrote the report would have sent', async () => {
    const dir = tempDir('steward-notify-from-');
    writeFileSync(path.join(dir, 'steward.yaml'), 'instance:\n  baseUrl: https://acme.example.com\npolicies: []\nnotify:\n  - type: webhook\n    url: env:HOOK_URL\n    on: always\n');
    const report = makeReport({ findings: [onQueue('q-1', { lifecycle: 'new' })] });
    writeFileSync(path.join(dir, 'report.json'), JSON.stringify(report));
    const sent = await notifyFrom({ from: 'report.json', cwd: dir, env: { HOOK_URL: 'http://127.0.0.1:9/hook' }, dryRun: true });
    expect(sent.records.map((r) => [r.destination, r.items, r.error])).toEqual([['env:HOOK_URL', 1, 'dry run']]);
    expect(sent.planned.map((p) => (p.body as { changes: { resource: string }[] }).changes.map((c) => c.resource))).toEqual([['queue/q-1']]);
  });
});
