// The emulated instance's HTTP server (node:http, 127.0.0.1 only): routing, counters, fault
// injection, both auth schemes, error bodies. Handlers live in api-*.ts.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, STATUS_CODES, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Switches } from './context.js';
import { resetCounts, totalRequests, zeroCounts } from './counters.js';
import { type FaultDecision, FaultInjector } from './faults.js';
import { generateState, SANDBOX_DEFAULT_SEED, SANDBOX_DEFAULT_SIZE } from './generator.js';
import { DEVELOPER_TOKEN_HEADER } from '../api/assumptions.js';
import { operation } from '../api/operations.js';
import { errorReply, HttpError, type Reply, sendReply } from './http.js';
import { matchRoute, type Route, WORKFLOW_PREFIX } from './routes.js';
import type { Sandbox, SandboxOptions, SandboxSize, SwitchName } from './types.js';

/** Bodies above this are refused with 413 (write bodies are small permission lists). */
const MAX_BODY_BYTES = 1_048_576;
/** What a "malformed JSON" fault sends: a body cut off mid-value. */
export const MALFORMED_JSON_BODY = '{"items": [{"id": 1, "title": "cut off';

function checkSize(size: Partial<SandboxSize> | undefined): SandboxSize {
  const merged = { ...SANDBOX_DEFAULT_SIZE, ...size };
  for (const [key, value] of Object.entries(merged)) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`sandbox size.${key} must be a non-negative integer`);
  }
  return merged;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? SANDBOX_DEFAULT_SEED;
  if (!Number.isInteger(seed)) throw new RangeError('sandbox seed must be an integer');
  const token = options.token ?? `sbx_${randomBytes(16).toString('hex')}`;
  const workflowToken = options.workflowToken ?? token;
  // Node lower-cases incoming header names; the default name is the client's assumption.
  const tokenHeader = options.tokenHeader ?? DEVELOPER_TOKEN_HEADER;
  const switches: Switches = {
    workflowGrant: options.workflowGrant ?? true,
    adminGrant: options.adminGrant ?? true,
    misconfiguredStatus: options.misconfiguredStatus ?? 200,
    ignoreSkip: options.ignoreSkip ?? false,
    overlapPages: options.overlapPages ?? false,
  };
  const faults = new FaultInjector(options.faultSeed ?? seed, options.faults);
  const counts = zeroCounts();

  const sandbox: Sandbox = {
    baseUrl: '',
    workflowUrl: '',
    token,
    workflowToken,
    state: generateState(seed, checkSize(options.size), options.now === undefined ? undefined : options.now.getTime()),
    counts,
    received: [],
    totalRequests: () => totalRequests(counts),
    resetCounts: () => {
      resetCounts(counts);
      sandbox.received.length = 0;
    },
    setFaults: (f) => faults.set(f),
    scriptFault: (operation, fault, times = 1) => faults.script(operation, fault, times),
    configure: (o) => {
      for (const key of Object.keys(switches) as SwitchName[]) {
        if (o[key] !== undefined) (switches as Record<SwitchName, unknown>)[key] = o[key];
      }
    },
    close: async () => {},
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        sendReply(res, errorReply(500, `Internal sandbox error: ${(error as Error).message}`), 0);
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    // The raw path, not new URL(): URL parsing would resolve `.`/`..` segments.
    const pathname = queryAt === -1 ? url : url.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1));
    const match = matchRoute(req.method ?? 'GET', pathname);
    if (match.kind === 'none') {
      req.resume();
      return sendReply(res, errorReply(404, `No route for ${req.method} ${pathname}`, true), 0);
    }
    if (match.kind === 'wrong-method') {
      req.resume();
      const reply = errorReply(405, `Method ${req.method} not allowed`);
      return sendReply(res, { ...reply, headers: { Allow: match.allow.join(', ') } }, 0);
    }
    const { route, params } = match;
    if (route.operation) counts[route.operation] += 1;
    const fault: FaultDecision = route.operation ? faults.decide(route.operation, pathname) : { delayMs: 0, slowBodyMs: 0 };
    if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (res.destroyed) return;
    if (fault.drop) {
      req.socket.destroy();
      return;
    }
    const body = await readBody(req);
    if (res.destroyed) return;
    // Writes only: a read sent as POST (a search) is not a write, however it is sent.
    if (route.operation && operation(route.operation).access === 'write') {
      sandbox.received.push({ operation: route.operation, method: route.method, path: pathname, body: parsedOrText(body ?? '') });
    }
    const reply = faultReply(fault) ?? authenticate(route, req) ?? runHandler(route, params, query, body);
    sendReply(res, reply, fault.slowBodyMs);
  }

  function authenticate(route: Route, req: IncomingMessage): Reply | undefined {
    if (route.auth === 'developer') {
      const given = req.headers[tokenHeader.toLowerCase()];
      if (given === undefined) return errorReply(401, `Missing developer token header ${tokenHeader}`);
      if (given !== token) return errorReply(401, 'Invalid developer token');
      // The instance host's workflow models need the Workflow API grant too.
      if (route.operation === 'listWorkflowModels' && !switches.workflowGrant) return errorReply(403, 'Forbidden', true);
      return undefined;
    }
    const authorization = req.headers.authorization;
    if (authorization === undefined) return errorReply(401, 'Missing Authorization header with a Bearer token');
    if (authorization !== `Bearer ${workflowToken}`) return errorReply(401, 'Invalid or expired access token');
    if (!switches.workflowGrant) return errorReply(403, "The token's user lacks the Workflow API grant");
    return undefined;
  }

  function runHandler(route: Route, params: Record<string, string>, query: URLSearchParams, body: string | null): Reply {
    if (body === null) return errorReply(413, 'Request body too large');
    try {
      return route.handler({ params, query, body, state: sandbox.state, switches });
    } catch (error) {
      if (error instanceof HttpError) return errorReply(error.status, error.message, error.rich);
      throw error;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  sandbox.baseUrl = `http://127.0.0.1:${port}`;
  sandbox.workflowUrl = `${sandbox.baseUrl}${WORKFLOW_PREFIX}`;
  sandbox.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return sandbox;
}

function faultReply(fault: FaultDecision): Reply | undefined {
  if (fault.malformedJson) {
    return { status: 200, raw: MALFORMED_JSON_BODY, headers: { 'Content-Type': 'application/json;charset=UTF-8' } };
  }
  if (fault.status === undefined) return undefined;
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['Retry-After'] = String(fault.retryAfter);
  if (fault.body !== undefined) return { status: fault.status, raw: fault.body, headers };
  const reply = errorReply(fault.status, `${STATUS_CODES[fault.status] ?? 'Error'} (injected fault)`);
  return { ...reply, headers };
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The body as text, or null when it exceeds MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8');
}
