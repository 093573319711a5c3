// ApiError over real HTTP: auth failures, workflow status meanings, error bodies, API drift,
// and that no token ever appears in an error or a log line.
import { createServer } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import type { ReportSchedule } from '../../src/api/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { allPages, allTextOf, clientFor, rejection, TOKEN, WORKFLOW_TOKEN, WRONG_TOKEN } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ seed: 5, token: TOKEN, workflowToken: WORKFLOW_TOKEN });
});
afterAll(() => s.close());
beforeEach(() => {
  s.resetCounts();
  s.configure({ workflowGrant: true });
});

const STATS = '/api/query/v1/functions/statistics';

describe('authentication', () => {
  it('401 without a token', async () => {
    const { client, log } = clientFor(s, { token: '' });
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error).toMatchObject({ code: 'E_API', kind: 'http', status: 401, method: 'GET', path: STATS, attempts: 1 });
    expect(error.message).toMatch(
      /^getCalculatedFieldStatistics: \[GET\] "\/api\/query\/v1\/functions\/statistics": 401 Unauthorized — missing, invalid or expired developer token \(sent in X-SERVICE-Developer-Token; developer tokens expire after the lifetime chosen when they were created\)/,
    );
    expect(s.counts.getCalculatedFieldStatistics).toBe(1);
    expect(log).toHaveLength(1);
    expect(client.stats()).toEqual({ requests: 1, retries: 0, failed: 1 });
  });

  it('401 with a wrong token, which appears in no message, JSON or log', async () => {
    const { client, log, retries } = clientFor(s, { token: WRONG_TOKEN, workflowToken: WRONG_TOKEN });
    const errors = [
      await rejection(client.getCalculatedFieldStatistics()),
      await rejection(client.listWorkflows()),
      await rejection(client.updateQueuePermissions('q-1', [])),
    ];
    expect(errors.map((e) => e.status)).toEqual([401, 401, 401]);
    const everything = [...errors.map(allTextOf), JSON.stringify(log), JSON.stringify(retries)].join('\n');
    expect(everything).not.toContain(WRONG_TOKEN);
    expect(everything).not.toContain('SECRET');
    expect(everything).not.toMatch(/Bearer [\w-]|Developer-Token: /i);
  });

  it('a server that echoes the token has it redacted', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { status: 400, body: `{"message":"bad header value ${TOKEN}"}` });
    const { client } = clientFor(s);
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error.apiMessage).toBe('bad header value ***');
    expect(allTextOf(error)).not.toContain(TOKEN);
  });
});

describe('workflow statuses carry the spec meaning', () => {
  it('401: missing or invalid token', async () => {
    const { client } = clientFor(s, { workflowToken: WRONG_TOKEN });
    const error = await rejection(client.listWorkflows());
    expect(error).toMatchObject({ kind: 'http', status: 401, path: '/v1/workflows', operation: 'listWorkflows' });
    expect(error.message).toContain(
      'listWorkflows: [GET] "/v1/workflows": 401 Unauthorized — missing or invalid token: the workflow token is absent, wrong or not sent as "Authorization: Bearer"',
    );
  });

  it("403: the token's user lacks the Workflow API grant", async () => {
    s.configure({ workflowGrant: false });
    const { client } = clientFor(s);
    const error = await rejection(client.listWorkflows());
    expect(error.status).toBe(403);
    expect(error.message).toContain(
      `listWorkflows: [GET] "/v1/workflows": 403 Forbidden — the token's user lacks the Workflow API grant: Admin › Roles › Grants`,
    );
    expect(s.counts.listWorkflows).toBe(1);
  });

  it('404: the workflow does not exist or cannot be seen', async () => {
    s.scriptFault('listWorkflows', { status: 404, body: '{"message":"No workflow here","status":404,"toe":"x"}' });
    const { client } = clientFor(s);
    const error = await rejection(client.listWorkflows());
    expect(error.message).toBe(
      "listWorkflows: [GET] \"/v1/workflows\": 404 Not Found — the workflow does not exist or the token's user cannot see it (server: No workflow here)",
    );
    expect(error.apiMessage).toBe('No workflow here');
  });

  it('no workflow URL: the instance host\'s model list, with the developer token', async () => {
    const client = createClient({ baseUrl: s.baseUrl, token: s.token });
    const workflows = await client.listWorkflows();
    expect(workflows.map((w) => w.id)).toEqual(s.state.workflows.map((w) => w.id));
    expect([s.counts.listWorkflowModels, s.counts.listWorkflows]).toEqual([1, 0]);
  });

  it('no workflow URL and no Workflow API grant: 403 with the grant named', async () => {
    s.configure({ workflowGrant: false });
    try {
      const client = createClient({ baseUrl: s.baseUrl, token: s.token });
      const error = await rejection(client.listWorkflows());
      expect(error).toMatchObject({ kind: 'http', status: 403, operation: 'listWorkflowModels' });
      expect(error.message).toMatch(
        /^listWorkflowModels: \[GET\] "\/api\/workflow\/v1\/models\?limit=100&skip=0": 403 Forbidden — the token's user lacks the Workflow API grant: Admin › Roles › Grants \(server: Forbidden \(trace id toe=SBX\w+\)\)$/,
      );
    } finally {
      s.configure({ workflowGrant: true });
    }
  });
});

describe('error bodies', () => {
  it('a body without `message` ({status, statusReason, toe}) is said as the status reason and the trace id', async () => {
    const { client } = clientFor(s);
    const error = await rejection(client.getDatasetPermissions('no-such-dataset'));
    expect(error).toMatchObject({ status: 404, path: '/api/data/v3/datasources/no-such-dataset/permissions' });
    expect(error.message).toMatch(
      /^getDatasetPermissions: \[GET\] "\/api\/data\/v3\/datasources\/no-such-dataset\/permissions": 404 Not Found — Not Found \(trace id toe=SBX\w+\)$/,
    );
    expect(error.apiMessage).toMatch(/^Not Found \(trace id toe=SBX\w+\)$/);
  });

  it('keeps `message` of a JSON body that has one', async () => {
    s.scriptFault('getDatasetPermissions', { status: 404, body: '{"message":"No such dataset","status":404,"toe":"T1"}' });
    const { client } = clientFor(s);
    const error = await rejection(client.getDatasetPermissions('ds-1'));
    expect(error.message).toBe('getDatasetPermissions: [GET] "/api/data/v3/datasources/ds-1/permissions": 404 Not Found — No such dataset');
  });

  it('quotes a short excerpt of a body that is not JSON', async () => {
    s.scriptFault('getCertificationStatus', { status: 404, body: `<html><body>${'Not here. '.repeat(40)}</body></html>` });
    const { client } = clientFor(s);
    const error = await rejection(client.getCertificationStatus('CARD', '1'));
    expect(error.apiMessage).toBe(`<html><body>${'Not here. '.repeat(40)}`.slice(0, 200) + '…');
    expect(error.message).toContain('404 Not Found — <html><body>Not here.');
  });

  it('409 on misconfigured reports is not retried', async () => {
    s.configure({ misconfiguredStatus: 409 });
    const { client } = clientFor(s);
    const error = await rejection(allPages(client.getMisconfiguredReports()));
    s.configure({ misconfiguredStatus: 200 });
    expect(error).toMatchObject({ kind: 'http', status: 409, attempts: 1 });
    expect(s.counts.getMisconfiguredReports).toBe(1);
  });
});

describe('API drift', () => {
  it('names the operation and the field of a mistyped value', async () => {
    const schedules = s.state.schedules;
    const saved = structuredClone(schedules[3]);
    // The card join relies on cardId: a string there is drift (null would be a schedule with no card).
    (schedules[3] as unknown as Record<string, unknown>).cardId = '1234';
    try {
      const { client } = clientFor(s, { pageSize: 1000 });
      const error = await rejection(allPages(client.listReportSchedules({ orderBy: 'title' })));
      const sorted = [...schedules].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id));
      const index = sorted.findIndex((r: ReportSchedule) => r.id === saved.id);
      expect(error).toMatchObject({ code: 'E_API', kind: 'drift', field: `[${index}].cardId` });
      expect(error.message).toMatch(
        new RegExp(`^listReportSchedules: API drift at \\[${index}\\]\\.cardId: expected integer or null, got string \\(\\[GET\\] "/api/content/v1/reportschedules\\?`),
      );
    } finally {
      schedules[3] = saved;
    }
  });

  it('names a missing field', async () => {
    const id = [...s.state.datasetAccess.keys()][0];
    const saved = s.state.datasetAccess.get(id);
    // Ownership policies read accessLevel: an entry without it is drift, not a non-owner.
    s.state.datasetAccess.set(id, { list: [{ type: 'USER', id: '7', name: 'Ana' }], totalUserCount: 1 } as unknown as typeof saved & object);
    try {
      const { client } = clientFor(s);
      const error = await rejection(client.getDatasetPermissions(id));
      expect(error.message).toMatch(/^getDatasetPermissions: API drift at list\[0\]\.accessLevel: missing \(/);
      expect(client.stats()).toEqual({ requests: 1, retries: 0, failed: 1 });
    } finally {
      if (saved) s.state.datasetAccess.set(id, saved);
    }
  });

  it('a 200 whose body is not JSON', async () => {
    s.scriptFault('getCalculatedFieldStatistics', { malformedJson: true });
    const { client } = clientFor(s);
    const error = await rejection(client.getCalculatedFieldStatistics());
    expect(error).toMatchObject({ kind: 'drift', field: '(body)', status: 200 });
    expect(error.message).toMatch(/^getCalculatedFieldStatistics: API drift at \(body\): expected JSON, got "\{/);
  });
});

describe('redirects', () => {
  it('are not followed, so the token never goes to another address', async () => {
    let redirectedTo = 0;
    const target = createServer((_req, res) => {
      redirectedTo += 1;
      res.end('{}');
    });
    const origin = createServer((_req, res) => {
      const address = target.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      res.writeHead(302, { location: `http://127.0.0.1:${port}/steal` }).end();
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    try {
      const address = origin.address();
      const port = address && typeof address === 'object' ? address.port : 0;
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, token: TOKEN });
      const error = await rejection(client.getCalculatedFieldStatistics());
      expect(error).toMatchObject({ kind: 'http', status: 302, attempts: 1 });
      expect(error.message).toBe(
        'getCalculatedFieldStatistics: [GET] "/api/query/v1/functions/statistics": 302 Found — redirects are not followed (the token would be sent wherever they point); check the base URL',
      );
      expect(redirectedTo).toBe(0);
    } finally {
      await new Promise<void>((resolve) => origin.close(() => resolve()));
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });
});
