// requestsPerSecond over real HTTP, on a fake clock: the limiter's interval timers and Date are
// faked, so which requests have started is counted at exact clock points, never timed.
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { clientFor, TOKEN, WORKFLOW_TOKEN } from './helpers.js';

let s: Sandbox;
beforeAll(async () => {
  s = await startSandbox({ seed: 3, token: TOKEN, workflowToken: WORKFLOW_TOKEN });
});
afterAll(() => s.close());
afterEach(() => vi.useRealTimers());

it('requestsPerSecond starts one request per 1000/rps ms, whatever the concurrency', async () => {
  // Only timers and Date: sockets and the sandbox keep running on the real event loop.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  s.resetCounts();
  const { client } = clientFor(s, { requestsPerSecond: 4, concurrency: 8 }); // one start per 250 ms
  const ids = [...s.state.datasetAccess.keys()].slice(0, 5);
  expect(ids).toHaveLength(5);
  const answers = Promise.all(ids.map((id) => client.getDatasetPermissions(id)));
  // stats().requests counts attempts as the limiter starts them.
  await vi.advanceTimersByTimeAsync(0);
  expect(client.stats().requests).toBe(1);
  await vi.advanceTimersByTimeAsync(249);
  expect(client.stats().requests).toBe(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(client.stats().requests).toBe(2);
  await vi.advanceTimersByTimeAsync(500);
  expect(client.stats().requests).toBe(4);
  await vi.advanceTimersByTimeAsync(250);
  expect(client.stats().requests).toBe(5);
  expect(await answers).toEqual(ids.map((id) => s.state.datasetAccess.get(id)));
  expect(s.counts.getDatasetPermissions).toBe(5);
  expect(client.stats()).toEqual({ requests: 5, retries: 0, failed: 0 });
});

it('without requestsPerSecond every request within the concurrency starts at once', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  s.resetCounts();
  const { client } = clientFor(s, { concurrency: 8 });
  const ids = [...s.state.datasetAccess.keys()].slice(0, 5);
  const answers = Promise.all(ids.map((id) => client.getDatasetPermissions(id)));
  await vi.advanceTimersByTimeAsync(0);
  expect(client.stats().requests).toBe(5);
  await answers;
  expect(s.counts.getDatasetPermissions).toBe(5);
});
