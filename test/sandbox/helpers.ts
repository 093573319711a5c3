// Small fetch wrappers for the sandbox tests (real HTTP on 127.0.0.1).
import type { Sandbox } from '../../src/sandbox/index.js';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (throws when it is not JSON). */
  json: <T = unknown>() => T;
}

export interface CallOptions {
  /** Serialised as JSON. */
  body?: unknown;
  /** Sent as is. */
  raw?: string;
  /** Developer token; null sends none. Default: the sandbox's token. */
  token?: string | null;
  headers?: Record<string, string>;
}

export async function call(s: Sandbox, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? s.token : options.token;
  if (token !== null) headers['X-SERVICE-Developer-Token'] = token;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${s.baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}

export async function workflows(s: Sandbox, authorization?: string): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.Authorization = authorization;
  const res = await fetch(`${s.workflowUrl}/v1/workflows`, { headers });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: <T>() => JSON.parse(text) as T };
}
