// The client's headers (src/api/wire-headers.ts), and what goes on the wire with them: a write's
// headers and JSON body as a server receives them, an answer's repeated Retry-After, and a
// status fetch would refuse.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/api/index.js';
import { answerFor, headersOf, WireHeaders } from '../../src/api/wire-headers.js';
import { rejection, TOKEN } from './helpers.js';

describe('WireHeaders', () => {
  it('compares names without case; a missing one is null', () => {
    const h = new WireHeaders({ Accept: 'application/json', 'X-DOMO-Developer-Token': 't' });
    expect([h.get('accept'), h.get('ACCEPT'), h.has('x-domo-developer-token'), h.get('content-type'), h.has('content-type')]).toEqual(['application/json', 'application/json', true, null, false]);
    h.set('Content-Type', 'application/json');
    h.set('accept', 'text/plain');
    expect([...h]).toEqual([
      ['accept', 'text/plain'],
      ['x-domo-developer-token', 't'],
      ['content-type', 'application/json'],
    ]);
  });

  it("joins an answer's repeated header as fetch does; takes pairs, records and headers alike", () => {
    const pairs: [string, string][] = [
      ['Retry-After', '1'],
      ['retry-after', '2'],
      ['Content-Type', 'application/json'],
    ];
    const h = new WireHeaders(pairs);
    expect(h.get('retry-after')).toBe('1, 2');
    h.append('Retry-After', '3');
    expect(h.get('RETRY-AFTER')).toBe('1, 2, 3');
    expect(Object.fromEntries(new WireHeaders(h))).toEqual({ 'retry-after': '1, 2, 3', 'content-type': 'application/json' });
    expect([...new WireHeaders()]).toEqual([]);
  });
});

describe('what ofetch is handed and hands back', () => {
  it('an answer ofetch reads: status 200-599 with its headers and no body; any other status refused as fetch refuses it', () => {
    const answer = answerFor(599, 'Odd', [['Retry-After', '2']]);
    expect([answer.status, answer.statusText, answer.headers.get('retry-after'), answer.body]).toEqual([599, 'Odd', '2', null]);
    expect(answerFor(200, 'OK', []).status).toBe(200);
    for (const status of [199, 600]) expect(() => answerFor(status, '', [])).toThrow(`the answer's status ${status} is outside 200-599`);
  });

  it('the record node:http takes, from headers ofetch made with WireHeaders; anything else is a bug, said as one', () => {
    expect(headersOf(new WireHeaders({ Accept: 'application/json' }) as unknown as RequestInit['headers'])).toEqual({ accept: 'application/json' });
    expect(() => headersOf({ accept: 'application/json' })).toThrow('ofetch handed headers not made with WireHeaders');
  });
});

describe('on the wire', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A server on loopback answering each request with `answer`; what it received, in order. */
  async function serve(answer: (res: import('node:http').ServerResponse) => void): Promise<{ baseUrl: string; received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] }> {
    const received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
    server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        received.push({ method: req.method, url: req.url, headers: req.headers, body });
        answer(res);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    return { baseUrl: `http://127.0.0.1:${address && typeof address === 'object' ? address.port : 0}`, received };
  }

  it('a write sends its body as JSON, with the JSON content type, the accept header and the token', async () => {
    const { baseUrl, received } = await serve((res) => res.writeHead(200).end());
    const client = createClient({ baseUrl, token: TOKEN });
    const body = [{ id: '7', name: 'Ana "A"', type: 'USER', permissions: ['READ'] }];
    await client.updateQueuePermissions('q-1', body);
    expect(received.map((r) => [r.method, r.url, r.headers['content-type'], r.headers.accept, r.headers['x-service-developer-token'], r.body])).toEqual([
      ['POST', '/api/queues/v1/q-1/permissions', 'application/json', 'application/json', TOKEN, JSON.stringify(body)],
    ]);
  });

  it("an answer's Retry-After is read through its headers: the wait is raised to it (here to the cap, 40 ms, over a 1 ms backoff)", async () => {
    let answered = 0;
    const { baseUrl, received } = await serve((res) => {
      answered += 1;
      if (answered === 1) res.writeHead(503, { 'Retry-After': '1' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ list: [], totalUserCount: 0, totalGroupCount: 0 }));
    });
    const waits: [number | undefined, number][] = [];
    const client = createClient({ baseUrl, token: TOKEN, retryBaseDelayMs: 1, retryMaxDelayMs: 40, onRetry: (e) => waits.push([e.status, e.delayMs]) });
    await client.getDatasetPermissions('ds-1');
    expect([received.length, waits]).toEqual([2, [[503, 40]]]);
  });

  it('a status fetch would refuse (600) is a network error, retried as one, never an answer', async () => {
    const { baseUrl, received } = await serve((res) => {
      res.statusCode = 600;
      res.end('[]');
    });
    const client = createClient({ baseUrl, token: TOKEN, maxAttempts: 2, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });
    const error = await rejection(client.getDatasetPermissions('ds-1'));
    expect([error.kind, error.attempts, received.length]).toEqual(['network', 2, 2]);
    expect(error.message).toBe('getDatasetPermissions: [GET] "/api/data/v3/datasources/ds-1/permissions": network error: the answer\'s status 600 is outside 200-599 (gave up after 2 attempts)');
  });
});
