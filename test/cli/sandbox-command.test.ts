// `steward sandbox --port N --token T` (the built CLI) as a user runs it: it prints where it
// listens and the token, the real client reaches all 12 operations there with the documented
// answers (api-spec.md), a wrong token gets 401, and SIGTERM stops it with exit 0.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createClient, type InstanceApi, type ReportSchedule } from '../../src/api/index.js';
import { PLANTED_FILESET_ID, PLANTED_FILESET_PATHS, PLANTED_QUEUES, PLANTED_SCHEDULE_IDS } from '../../src/sandbox/demo.js';
import { SANDBOX_DEFAULT_SIZE } from '../../src/sandbox/index.js';
import { CLI, runCli } from './helpers.js';

const TOKEN = 'tok-sandbox-cmd-8812';
const WRONG = 'tok-not-the-one-3391';
const PAGE = 10;

/** A port nothing listens on now: bind port 0, read what the OS gave, release it. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

let port: number;
let child: ChildProcessWithoutNullStreams;
let stdout = '';
let stderr = '';
let exited: Promise<number | null>;
let printed: { baseUrl: string; workflowUrl: string; token: string };
let client: InstanceApi;

beforeAll(async () => {
  port = await freePort();
  child = spawn(process.execPath, [CLI, 'sandbox', '--port', String(port), '--token', TOKEN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  exited = new Promise((resolve) => child.on('close', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('Press Ctrl+C to stop.')) resolve();
    });
    exited.then((code) => reject(new Error(`steward sandbox exited (${code}) before serving:\n${stdout}${stderr}`)));
  });
  const field = (label: string) => new RegExp(`^ {2}${label}:\\s+(\\S+)$`, 'm').exec(stdout)?.[1] ?? '';
  printed = { baseUrl: field('base URL'), workflowUrl: field('workflow URL'), token: field('token') };
  client = createClient({ ...printed, pageSize: PAGE, retryBaseDelayMs: 1 });
});

afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
});

describe('steward sandbox --port --token', () => {
  it('prints a base URL on the requested port, the workflow URL below it and the given token', () => {
    expect(printed).toEqual({ baseUrl: `http://127.0.0.1:${port}`, workflowUrl: `http://127.0.0.1:${port}/workflow`, token: TOKEN });
    expect(stderr).toBe('');
  });

  it('lists every report schedule over all pages, planted ones included, sorted by title', async () => {
    const pages: ReportSchedule[][] = [];
    for await (const page of client.listReportSchedules()) pages.push(page);
    const rows = pages.flat();
    const total = SANDBOX_DEFAULT_SIZE.schedules + PLANTED_SCHEDULE_IDS.length;
    expect(pages.map((p) => p.length)).toEqual([...Array(Math.floor(total / PAGE)).fill(PAGE), total % PAGE].filter((n) => n > 0));
    expect(new Set(rows.map((r) => r.id)).size).toBe(total);
    expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining([...PLANTED_SCHEDULE_IDS]));
    const titles = rows.map((r) => r.title ?? '');
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const r of rows) {
      for (const key of ['id', 'reportViewId', 'pageId', 'ownerId', 'cardCount', 'recipientCount', 'cardId'] as const) {
        expect(Number.isInteger(r[key]), `${r.id}.${key}`).toBe(true);
      }
      expect([typeof r.title, typeof r.type, typeof r.owner]).toEqual(['string', 'string', 'boolean']);
      expect(Object.keys(r.schedule).sort()).toEqual(
        expect.arrayContaining(['daysToRun', 'enabled', 'frequency', 'hourOfDay', 'minOfHour', 'nextRunDate', 'startDate', 'timezone']),
      );
      expect([Number.isInteger(r.schedule.startDate), Number.isInteger(r.schedule.nextRunDate)]).toEqual([true, true]);
    }
    // As captured on a real instance: schedules without a view carry viewName and embedViewId null.
    const viewless = rows.filter((r) => r.viewName === null);
    expect(viewless.length).toBeGreaterThan(0);
    for (const r of viewless) expect([r.embedViewId, r.pageId, r.type]).toEqual([null, 0, 'view']);
    for (const r of rows.filter((x) => x.viewName !== null)) expect([typeof r.viewName, Number.isInteger(r.embedViewId)]).toEqual(['string', true]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(9004)!.schedule.timezone).toBe('Mars/Olympus');
    expect(byId.get(9005)!.recipientCount).toBe(0);
    expect(byId.get(9006)!.cardId).toBe(7001);
  });

  it('answers misconfigured reports with exactly 9001–9003', async () => {
    const rows = [];
    for await (const page of client.getMisconfiguredReports()) rows.push(...page);
    expect(rows.map((r) => r.id)).toEqual([9001, 9002, 9003]);
    expect(rows.map((r) => r.title)).toEqual(['Board KPI Pack', 'Regional Revenue Digest', 'Churn Watchlist']);
    for (const r of rows) {
      expect([typeof r.active, typeof r.schedule?.frequency, typeof r.schedule?.enabled]).toEqual(['boolean', 'string', 'boolean']);
    }
    expect(rows[2]!.schedule?.enabled).toBe(false);
  });

  it('answers the access list of a planted dataset with its counts', async () => {
    expect(await client.getDatasetPermissions('ds-finance-certified')).toEqual({
      list: [
        { type: 'GROUP', id: '305', name: 'Finance Admins', accessLevel: 'OWNER' },
        { type: 'USER', id: '7', name: 'Ana Ruiz', accessLevel: 'CO_OWNER' },
        { type: 'USER', id: '9', name: 'Ben Okafor', accessLevel: 'CAN_VIEW' },
      ],
      totalUserCount: 2,
      totalGroupCount: 1,
    });
  });

  it('answers calculated-field statistics: eight integers, 3 invalid and 1 invalid link', async () => {
    const stats = await client.getCalculatedFieldStatistics();
    const keys = ['total', 'onDatasets', 'onCards', 'inVisualizations', 'locked', 'invalid', 'invalidLink', 'archived'] as const;
    for (const key of keys) expect(Number.isInteger(stats[key]), key).toBe(true);
    expect(stats).toMatchObject({ invalid: 3, invalidLink: 1 });
  });

  it('answers file metadata by path for each planted file, the legacy one hashed with MD5', async () => {
    for (const filePath of PLANTED_FILESET_PATHS) {
      const file = await client.getFileByPath(PLANTED_FILESET_ID, filePath);
      expect([file.path, file.name]).toEqual([filePath, filePath.slice(filePath.lastIndexOf('/') + 1)]);
      expect(file.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(new Date(file.created as string).toISOString()).toBe(file.created);
      expect([file.downloadUrl, file.connectorKey, file.hashAlgorithm]).toEqual([null, null, expect.any(String)]);
      expect(['TEXT', 'FILE']).toContain(file.fileType);
      expect([Number.isInteger(file.size), Number.isInteger(file.createdBy)]).toEqual([true, true]);
    }
    expect(await client.getFileByPath(PLANTED_FILESET_ID, '/raw/legacy.csv')).toMatchObject({
      id: 'a1b2c3d4-0003-4e00-8000-000000000003',
      hashAlgorithm: 'MD5',
      hash: '9e107d9d372bb6826bd81d3542a419d6',
      size: 61_440,
      created: '2025-02-10T12:00:00.000Z',
    });
  });

  it('answers certification of datasets and cards, nulls for a dataset never certified', async () => {
    expect(await client.getCertificationStatus('DATA_SOURCE', 'ds-legacy-expired')).toMatchObject({ tag: 'CERTIFIED', state: 'EXPIRED' });
    expect(await client.getCertificationStatus('DATA_SOURCE', 'ds-scratch')).toEqual({
      tag: 'CERTIFIED',
      state: null,
      metadata: null,
      updated: null,
    });
    expect(await client.getCertificationStatus('CARD', '7001')).toMatchObject({ tag: 'CERTIFIED', state: 'EXPIRED' });
    expect(await client.getCertificationStatus('CARD', '7002')).toMatchObject({ tag: 'CERTIFIED', state: 'ACTIVE' });
  });

  it('lists workflows over the bearer-authenticated workflow URL, the unnamed one included', async () => {
    const workflows = await client.listWorkflows();
    expect(workflows).toHaveLength(SANDBOX_DEFAULT_SIZE.workflows + 2);
    expect(workflows.find((w) => w.id === 'wf-unnamed')).toMatchObject({ name: '' });
    expect(workflows.find((w) => w.id === 'wf-nightly-refresh')).toMatchObject({ name: 'Nightly dataset refresh' });
  });

  it('accepts the writes: tags, queue and data-file permissions, indexing', async () => {
    await expect(client.createDatasetTags('ds-scratch', ['pii', 'reviewed'])).resolves.toBeUndefined();
    const marketing = PLANTED_QUEUES['q-marketing']!.map((e) => (e.id === '22' ? { ...e, permissions: [] } : e));
    await expect(client.updateQueuePermissions('q-marketing', marketing)).resolves.toBeUndefined();
    const body = { publicAccess: false, entries: [{ entityId: '9', grant: 'READ', pass: 'NONE' }] };
    await expect(client.updateFilePermissions('44', body)).resolves.toBeUndefined();
    await expect(client.indexDataset('ds-finance-certified')).resolves.toBeUndefined();
  });

  it('duplicates data file 44 into a new data file that then exists', async () => {
    const copy = await client.duplicateDataFile('44');
    expect(Number.isInteger(copy.dataFileId)).toBe(true);
    expect([42, 43, 44]).not.toContain(copy.dataFileId);
    expect(copy.currentRevision?.dataFileId).toBe(copy.dataFileId);
    expect(copy.revisions).toContainEqual(copy.currentRevision);
    expect([typeof copy.name, typeof copy.existing, Number.isInteger(copy.datetimeCreated)]).toEqual(['string', 'boolean', true]);
    // The copy is a real data file: its permissions can be written (an unknown id gets 404).
    const body = { publicAccess: false, entries: [] };
    await expect(client.updateFilePermissions(String(copy.dataFileId), body)).resolves.toBeUndefined();
    await expect(client.updateFilePermissions('987654', body)).rejects.toMatchObject({ kind: 'http', status: 404 });
    const again = await client.duplicateDataFile('44');
    expect([44, copy.dataFileId]).not.toContain(again.dataFileId);
    expect(client.stats()).toMatchObject({ retries: 0, failed: 1 });
  });

  it('answers 401 with an error body to a wrong token, on a developer endpoint and on workflows', async () => {
    const dev = await fetch(`${printed.baseUrl}/api/query/v1/functions/statistics`, { headers: { 'X-SERVICE-Developer-Token': WRONG } });
    expect(dev.status).toBe(401);
    expect(Object.keys((await dev.json()) as object)).toEqual(['message']);
    const wf = await fetch(`${printed.workflowUrl}/v1/workflows`, { headers: { Authorization: `Bearer ${WRONG}` } });
    expect(wf.status).toBe(401);
    expect(Object.keys((await wf.json()) as object)).toEqual(['message']);

    const wrong = createClient({ ...printed, token: WRONG, retryBaseDelayMs: 1 });
    for (const call of [() => wrong.getCalculatedFieldStatistics(), () => wrong.listWorkflows()]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ kind: 'http', status: 401, attempts: 1 });
      expect(JSON.stringify(error) + (error as Error).message).not.toContain(WRONG);
    }
  });

  it('a second sandbox on the same port is a bad flag (exit 2), not a crash', async () => {
    const second = await runCli(['sandbox', '--port', String(port)]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`--port: 127.0.0.1:${port} is already in use: choose another --port`);
  });

  it('stops on SIGTERM with exit code 0 and frees the port', async () => {
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    await expect(fetch(`${printed.baseUrl}/api/query/v1/functions/statistics`)).rejects.toThrow();
  });
});
