// After one 401, later requests with the same token fail without being sent (one latch per
// token: developer header, workflow Bearer). 403 does not latch. Over real HTTP on the sandbox.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTransport } from '../../src/api/http.js';
import { OPERATIONS } from '../../src/api/operations.js';
import type { ClientOptions, InstanceApi, Workflow } from '../../src/api/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { allPages, allTextOf, clientFor, rejection, TOKEN, WORKFLOW_TOKEN, WRONG_TOKEN } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ seed: 7, token: TOKEN, workflowToken: WORKFLOW_TOKEN });
});
afterAll(() => s.close());
beforeEach(() => {
  s.resetCounts();
  s.configure({ workflowGrant: true });
});

const NOT_SENT = '(not sent: an earlier request with the same token was refused with 401)';
const DEVELOPER_401 = '401 Unauthorized — missing, invalid or expired developer token (sent in X-SERVICE-Developer-Token; developer tokens expire after the lifetime chosen when they were created)';
const WORKFLOW_401 =
  '401 Unauthorized — missing or invalid token: the workflow token is absent, wrong or not sent as "Authorization: Bearer"';

/** Five different developer-token reads, in this order. */
function fiveReads(client: InstanceApi): Array<() => Promise<unknown>> {
  const datasetId = [...s.state.datasetAccess.keys()][0];
  return [
    () => client.getCalculatedFieldStatistics(),
    () => client.getDatasetPermissions(datasetId),
    () => client.getFileByPath('fs-1', 'a/b.csv'),
    () => client.getCertificationStatus('CARD', '42'),
    () => allPages(client.listReportSchedules()),
  ];
}
const FIVE_OPERATIONS = [
  'getCalculatedFieldStatistics',
  'getDatasetPermissions',
  'getFileByPath',
  'getCertificationStatus',
  'listReportSchedules',
];

/** The workflow list with a query, so the GET memo does not answer it: a second workflow request. */
function otherWorkflowRequest(options: Partial<ClientOptions>) {
  const transport = createTransport({ baseUrl: s.baseUrl, workflowUrl: s.workflowUrl, token: s.token, ...options });
  const again = () =>
    transport.getJson<Workflow[]>(
      { operation: 'listWorkflows', method: 'GET', host: 'workflow', path: OPERATIONS.listWorkflows.path, query: { page: 2 } },
      OPERATIONS.listWorkflows.response,
    );
  const first = () =>
    transport.getJson<Workflow[]>(
      { operation: 'listWorkflows', method: 'GET', host: 'workflow', path: OPERATIONS.listWorkflows.path },
      OPERATIONS.listWorkflows.response,
    );
  return { transport, first, again };
}

describe('developer token refused with 401', () => {
  it('one request reaches the server; the next four fail unsent, each naming its operation', async () => {
    const { client, log } = clientFor(s, { token: WRONG_TOKEN });
    const errors = [];
    for (const read of fiveReads(client)) errors.push(await rejection(read()));
    expect(s.totalRequests()).toBe(1);
    expect(s.counts.getCalculatedFieldStatistics).toBe(1);
    expect(log).toHaveLength(1);
    expect(errors.map((e) => [e.code, e.kind, e.status, e.operation])).toEqual(
      FIVE_OPERATIONS.map((op) => ['E_API', 'http', 401, op]),
    );
    expect(errors[0].message).toBe(
      `getCalculatedFieldStatistics: [GET] "/api/query/v1/functions/statistics": ${DEVELOPER_401} (server: Invalid developer token)`,
    );
    expect(errors[0].attempts).toBe(1);
    expect(errors[2]).toMatchObject({ method: 'GET', path: '/api/files/v1/filesets/fs-1/path?path=a%2Fb.csv', attempts: 0 });
    expect(errors[2].message).toBe(
      `getFileByPath: [GET] "/api/files/v1/filesets/fs-1/path?path=a%2Fb.csv": ${DEVELOPER_401} ${NOT_SENT}`,
    );
    for (const e of errors.slice(1)) {
      expect(e.message.startsWith(`${e.operation}: [GET] "`)).toBe(true);
      expect(e.message.endsWith(`${DEVELOPER_401} ${NOT_SENT}`)).toBe(true);
    }
    expect(client.stats()).toEqual({ requests: 1, retries: 0, failed: 5 });
    const everything = [...errors.map(allTextOf), JSON.stringify(log)].join('\n');
    expect(everything).not.toContain(WRONG_TOKEN);
    expect(everything).not.toContain('SECRET');
  });

  it('requests queued behind the refused one are not sent either (concurrency 1)', async () => {
    const { client } = clientFor(s, { token: WRONG_TOKEN, concurrency: 1 });
    const errors = await Promise.all(fiveReads(client).map((read) => rejection(read())));
    expect(s.totalRequests()).toBe(1);
    expect(errors.map((e) => [e.status, e.operation])).toEqual(FIVE_OPERATIONS.map((op) => [401, op]));
    expect(errors.filter((e) => e.message.endsWith(NOT_SENT))).toHaveLength(4);
    expect(client.stats()).toEqual({ requests: 1, retries: 0, failed: 5 });
  });

  it('writes with the refused token are not sent; the workflow token still works', async () => {
    const { client } = clientFor(s, { token: WRONG_TOKEN });
    await rejection(client.getCalculatedFieldStatistics());
    const write = await rejection(client.updateQueuePermissions('q-1', []));
    expect(write).toMatchObject({ status: 401, operation: 'updateQueuePermissions', method: 'POST', attempts: 0 });
    expect(write.message).toContain(NOT_SENT);
    expect(s.counts.updateQueuePermissions).toBe(0);
    await expect(client.listWorkflows()).resolves.toHaveLength(s.state.workflows.length);
    expect(s.totalRequests()).toBe(2);
    expect(client.stats()).toEqual({ requests: 2, retries: 0, failed: 2 });
  });
});

describe('workflow token refused with 401', () => {
  it('latches workflow requests only; developer reads still work', async () => {
    const { transport, first, again } = otherWorkflowRequest({ workflowToken: WRONG_TOKEN });
    const sent = await rejection(first());
    expect(sent.message).toMatch(/^listWorkflows: \[GET\] "\/v1\/workflows": 401 Unauthorized — missing or invalid token: the workflow token is absent/);
    expect(sent.message).not.toContain(NOT_SENT);
    const unsent = await rejection(again());
    expect(unsent).toMatchObject({
      kind: 'http',
      status: 401,
      operation: 'listWorkflows',
      path: '/v1/workflows?page=2',
      attempts: 0,
    });
    expect(unsent.message).toBe(`listWorkflows: [GET] "/v1/workflows?page=2": ${WORKFLOW_401} ${NOT_SENT}`);
    expect(s.counts.listWorkflows).toBe(1);
    const stats = await transport.getJson<unknown>(
      { operation: 'getCalculatedFieldStatistics', method: 'GET', path: OPERATIONS.getCalculatedFieldStatistics.path },
      OPERATIONS.getCalculatedFieldStatistics.response,
    );
    expect(stats).toBeTypeOf('object');
    expect(s.counts.getCalculatedFieldStatistics).toBe(1);
    expect(transport.stats()).toEqual({ requests: 2, retries: 0, failed: 2 });
    expect([allTextOf(sent), allTextOf(unsent)].join('\n')).not.toContain('SECRET');
  });
});

describe('403 does not latch', () => {
  it('each workflow request is sent and answered on its own', async () => {
    s.configure({ workflowGrant: false });
    const { transport, first, again } = otherWorkflowRequest({ workflowToken: WORKFLOW_TOKEN });
    expect((await rejection(first())).status).toBe(403);
    const second = await rejection(again());
    expect(second.status).toBe(403);
    expect(second.message).not.toContain(NOT_SENT);
    expect(s.counts.listWorkflows).toBe(2);
    expect(transport.stats()).toEqual({ requests: 2, retries: 0, failed: 2 });
  });
});
