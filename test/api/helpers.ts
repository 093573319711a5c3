// Shared set-up of the client tests: a sandbox on 127.0.0.1 with recognisable tokens and a
// client that records its request log and retry waits.
import { createServer } from 'node:net';
import { createClient } from '../../src/api/index.js';
import type { ClientOptions, InstanceApi, RequestLogEvent, RetryEvent } from '../../src/api/types.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Distinctive so a leak is easy to spot in any output. */
export const TOKEN = 'tok-SECRET-4f1e9c2b7a';
export const WORKFLOW_TOKEN = 'wf-SECRET-8d3a6b0e51';
export const WRONG_TOKEN = 'wrong-SECRET-00c0ffee';

export interface RecordingClient {
  client: InstanceApi;
  log: RequestLogEvent[];
  retries: RetryEvent[];
}

/** Quick retries for tests: 1 ms backoff, waits capped at 20 ms. */
export function clientFor(s: Sandbox, overrides: Partial<ClientOptions> = {}): RecordingClient {
  const log: RequestLogEvent[] = [];
  const retries: RetryEvent[] = [];
  const client = createClient({
    baseUrl: s.baseUrl,
    workflowUrl: s.workflowUrl,
    token: s.token,
    workflowToken: s.workflowToken,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 20,
    timeoutMs: 5_000,
    onRequest: (e) => log.push(e),
    onRetry: (e) => retries.push(e),
    ...overrides,
  });
  return { client, log, retries };
}

/** Collects all pages of an async iterator. */
export async function allPages<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}

/** Every text form of an error a user or a log could see. */
export function allTextOf(error: unknown): string {
  const e = error as Error;
  return [String(e), e.message, e.stack ?? '', JSON.stringify(e), String((e as { cause?: unknown }).cause ?? '')].join('\n');
}

/** A loopback port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
