// Replies and error bodies of the emulated instance. 404/403/409 answer as the platform's
// instance host does, `{status, statusReason, toe}` with no `message`; other errors (400 on a
// bad write body, 401, the workflow API) carry `{message}`.
import { STATUS_CODES, type ServerResponse } from 'node:http';

export interface Reply {
  status: number;
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent as is (an empty string is an empty 200, as the platform answers some writes). */
  raw?: string;
  headers?: Record<string, string>;
}

/** Thrown by handlers; the server turns it into an error reply. */
export class HttpError extends Error {
  readonly status: number;
  readonly rich: boolean;
  constructor(status: number, message: string, rich = status === 404 || status === 403 || status === 409) {
    super(message);
    this.status = status;
    this.rich = rich;
  }
}

let traceSequence = 0;

/** `rich`: the instance host's body, which says the status and a trace id but not `message`. */
export function errorReply(status: number, message: string, rich = false): Reply {
  return rich ? platformError(status) : { status, body: { message } };
}

function platformError(status: number): Reply {
  traceSequence += 1;
  const toe = `SBX${traceSequence.toString(36).toUpperCase().padStart(8, '0')}`;
  return { status, body: { status, statusReason: STATUS_CODES[status] ?? 'Error', toe } };
}

export function ok(body: unknown): Reply {
  return { status: 200, body };
}

export function emptyOk(): Reply {
  return { status: 200, raw: '' };
}

export function sendReply(res: ServerResponse, reply: Reply, slowBodyMs: number): void {
  const text = reply.raw ?? (reply.body === undefined ? '' : JSON.stringify(reply.body));
  const headers: Record<string, string | number> = { ...reply.headers, 'Content-Length': Buffer.byteLength(text) };
  if (reply.raw === undefined && reply.body !== undefined) headers['Content-Type'] = 'application/json;charset=UTF-8';
  res.writeHead(reply.status, headers);
  if (slowBodyMs <= 0 || text.length < 2) {
    res.end(text);
    return;
  }
  const half = Buffer.from(text).subarray(0, Math.floor(Buffer.byteLength(text) / 2));
  const rest = Buffer.from(text).subarray(half.length);
  res.write(half);
  const timer = setTimeout(() => res.end(rest), slowBodyMs);
  res.once('close', () => clearTimeout(timer));
}

/** Parses a request body that must be JSON; anything else is a 400. */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') throw new HttpError(400, 'Request body is required and must be JSON');
  try {
    return JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}

/** A non-negative integer query parameter, undefined when absent. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^\d+$/.test(value)) throw new HttpError(400, `Query parameter ${name} must be a non-negative integer, got "${value}"`);
  return Number(value);
}
