// One attempt on the wire: node:http(s) over one keep-alive pool per origin, the body read up
// to a cap (after decompression, so a small gzip that inflates to gigabytes costs at most the
// cap) and decoded once. A global fetch costs two to three times the CPU of this for the same
// answer (streams, a Response per step); with thousands of reads per run that is the client's
// whole CPU budget. Redirects are never followed (node:http does not), timeouts and the run's
// deadline come in as an AbortSignal. An https origin is reached through the proxy the process
// environment names (HTTPS_PROXY / ALL_PROXY, NO_PROXY, read as curl reads them), by a CONNECT
// tunnel: the proxy relays TLS it cannot read, so the token never reaches it in clear. Plain
// http origins (loopback, or explicitly allowed) are never sent through a proxy for that reason.
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { getProxyForUrl } from 'proxy-from-env';

/** An answer past the body cap: an error of its read, never retried (the same answer would come). */
export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes (decompressed)`);
    this.name = 'BodyTooLargeError';
    this.maxBytes = maxBytes;
  }
}

export interface WireRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface WireAnswer {
  status: number;
  statusText: string;
  /** Header name and value pairs as they came (what a Response or Headers takes). */
  headers: [string, string][];
  /** The body decoded as UTF-8 (a BOM dropped), '' when there is none. */
  text: string;
}

/** One attempt under way: its answer, and a way to end it (a timeout, the run's deadline). */
export interface WireAttempt {
  answer: Promise<WireAnswer>;
  /** Ends the attempt: the connection is dropped and `answer` rejects with `reason`. */
  cancel(reason: unknown): void;
}

/** What fetch asks for; decompressed here as the body streams in. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

export interface ConnectionPool {
  send(url: string, request: WireRequest, maxBytes: number): WireAttempt;
}

export function createConnectionPool(maxSockets: number): ConnectionPool {
  const agents = new Map<string, http.Agent>();
  const agentFor = (url: URL): http.Agent => {
    let agent = agents.get(url.origin);
    if (!agent) {
      const options = { keepAlive: true, maxSockets, scheduling: 'lifo' as const };
      const proxy = url.protocol === 'https:' ? proxyFor(url) : null;
      agent = proxy ? new HttpsProxyAgent(proxy, options) : url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      agents.set(url.origin, agent);
    }
    return agent;
  };
  return {
    send(target, request, maxBytes) {
      const url = new URL(target);
      const transport = url.protocol === 'https:' ? https : http;
      // A cancel function rather than an AbortSignal: a timeout needs no event target per attempt.
      let cancel: (reason: unknown) => void = () => {};
      const answer = new Promise<WireAnswer>((resolve, reject) => {
        let settled = false;
        const settle = (fn: () => void) => {
          if (settled) return;
          settled = true;
          fn();
        };
        const req = transport.request(url, {
          method: request.method,
          headers: { ...request.headers, 'accept-encoding': ACCEPT_ENCODING },
          agent: agentFor(url),
        });
        cancel = (reason) => {
          settle(() => reject(reason));
          req.destroy();
        };
        req.on('error', (error) => settle(() => reject(error)));
        req.on('response', (res) => {
          readBody(res, maxBytes, (error, body) => {
            // Settled before anything is destroyed: the socket's own error must not win.
            if (error) settle(() => reject(error));
            else settle(() => resolve(answerOf(res, body as Buffer)));
            if (error) req.destroy();
          });
        });
        req.end(request.body);
      });
      return { answer, cancel: (reason) => cancel(reason) };
    },
  };
}

/** The proxy an https origin goes through (null: none, or NO_PROXY names it). */
function proxyFor(url: URL): URL | null {
  const proxy = getProxyForUrl(url.href);
  if (!proxy) return null;
  const parsed = new URL(proxy);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`the proxy for ${url.origin} must be an http:// or https:// URL (a CONNECT proxy), got ${parsed.protocol}//…`);
  }
  return parsed;
}

const decoder = new TextDecoder();

function answerOf(res: http.IncomingMessage, body: Buffer): WireAnswer {
  const headers: [string, string][] = [];
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.push([raw[i], raw[i + 1]]);
  return { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers, text: body.length ? decoder.decode(body) : '' };
}

/** The body, inflated as it arrives; past `maxBytes` the read stops with BodyTooLargeError. */
function readBody(res: http.IncomingMessage, maxBytes: number, done: (error: Error | null, body?: Buffer) => void): void {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const inflate =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  const stream: Readable = inflate ? res.pipe(inflate) : res;
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const fail = (error: Error) => {
    if (finished) return;
    finished = true;
    done(error);
    res.destroy();
    inflate?.destroy();
  };
  stream.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > maxBytes) return fail(new BodyTooLargeError(maxBytes));
    chunks.push(chunk);
  });
  stream.on('end', () => {
    if (finished) return;
    finished = true;
    done(null, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
  });
  stream.on('error', fail);
  if (inflate) res.on('error', fail);
  res.on('aborted', () => fail(new Error('the connection closed before the answer ended')));
}
