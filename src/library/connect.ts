// Where a run reads from: the live client (base URL and token checked first) or a snapshot
// replay. The emulated instance is not here: the CLI starts one and passes its URL and token.
import path from 'node:path';
import { createClient, REMOTE_REQUESTS_PER_SECOND } from '../api/index.js';
import { isLoopbackHost } from '../core/loopback.js';
import { readSnapshot, replayApi } from '../api/snapshot.js';
import { STDIN } from '../io/input-file.js';
import type { InstanceApi } from '../api/types.js';
import type { Config } from '../config/index.js';
import { displayPath } from '../core/display-path.js';
import { InputError, type InputProblem } from '../core/problem.js';
import type { CheckOptions, PreparedRun } from './prepare.js';

const problem = (file: string, message: string): InputProblem => ({ file, line: 0, column: 0, message });

/** What a live run needs and lacks, said in terms of what the user can set. */
export function connectionProblems(config: Config): InputProblem[] {
  // Several instances are `check`'s to run side by side (evaluate.ts); every other command reads one.
  if (config.instances && config.instances.length > 1) {
    return [problem('--instance', `this reads one instance: pick it with --instance NAME (one of: ${config.instances.map((i) => i.name).join(', ')})`)];
  }
  // One of `instances:`: its base URL is required there; its tokens are read from the variables it names.
  if (config.instances?.length === 1) return config.instances[0]!.unsetTokens;
  const missing: InputProblem[] = [];
  if (!config.instance.baseUrl) {
    missing.push(
      problem(
        'STEWARD_BASE_URL',
        'no instance to check: set STEWARD_BASE_URL (or instance.baseUrl in steward.yaml, or --base-url); or try `steward check --sandbox` against the built-in demo instance',
      ),
    );
  }
  if (!config.instance.token) {
    missing.push(
      problem('STEWARD_TOKEN', 'no API token: set STEWARD_TOKEN (a developer token of the instance); tokens never go in steward.yaml'),
    );
  }
  // Nothing configured at all: the way to start is `steward init`.
  if (missing.length > 0 && !config.file) {
    missing[0] = { ...missing[0], message: `${missing[0].message}; no steward.yaml here either: \`steward init\` writes a starter one` };
  }
  return missing;
}

/** Where a run reads from (and `fix --apply` writes to). */
export interface Connection {
  api: InstanceApi;
  /** The base URL, or `snapshot:FILE` for a replay. */
  instance: string;
  /** A snapshot replay cannot write. */
  readOnly: boolean;
  /** A replay: the base URL its snapshot was recorded from (the snapshot's header). */
  recordedFrom?: string;
  close(): Promise<void>;
}

/** A conservative rate toward a shared host; none toward loopback (the sandbox, a local proxy). */
export function defaultRate(baseUrl: string): number | undefined {
  return isLoopbackHost(new URL(baseUrl).hostname) ? undefined : REMOTE_REQUESTS_PER_SECOND;
}

/** Opens the live client, or the snapshot replay the options ask for. */
export async function openConnection(options: CheckOptions, prepared: PreparedRun): Promise<Connection> {
  const { config } = prepared;
  const client = (baseUrl: string, token: string, workflowUrl: string | null, workflowToken: string | null) =>
    createClient({
      ...options.client,
      baseUrl,
      token,
      workflowUrl: workflowUrl ?? undefined,
      workflowToken: workflowToken ?? undefined,
      concurrency: config.concurrency,
      requestsPerSecond: config.requestsPerSecond ?? defaultRate(baseUrl),
      tokenHeader: config.instance.tokenHeader ?? undefined,
      secrets: config.secrets,
      pageSize: options.client?.pageSize ?? config.instance.pageSize ?? undefined,
      onRequest: options.onRequest,
      deadline: options.client?.deadline ?? { at: Date.now() + config.timeout.ms, label: config.timeout.label },
    });
  if (options.from === STDIN) {
    // `steward snapshot --out /dev/stdout | … | steward check --from -`
    const snapshot = await readSnapshot(STDIN, 'stdin');
    return { api: replayApi(snapshot), instance: 'snapshot:stdin', readOnly: true, recordedFrom: snapshot.instance, close: async () => {} };
  }
  if (options.from) {
    const file = path.resolve(prepared.cwd, options.from);
    const snapshot = await readSnapshot(file, displayPath(file, prepared.cwd));
    return { api: replayApi(snapshot), instance: `snapshot:${displayPath(file, prepared.cwd)}`, readOnly: true, recordedFrom: snapshot.instance, close: async () => {} };
  }
  const missing = connectionProblems(config);
  if (missing.length > 0) throw new InputError(missing);
  const { baseUrl, token, workflowUrl, workflowToken } = config.instance;
  return { api: client(baseUrl!, token!, workflowUrl, workflowToken), instance: baseUrl!, readOnly: false, close: async () => {} };
}

/** A base URL's scheme, host and path, without a trailing slash: how two spellings of one instance compare. */
function instanceOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url;
  }
}

/**
 * A replay of a snapshot recorded from another instance than the one the run names (an
 * instance of `instances:`, the config's or the environment's base URL): said, since the
 * findings are reported as this instance's yet are that one's. Null when they agree or either
 * is unknown.
 */
export function replayWarning(connection: Connection, config: Config): string | null {
  const named = config.instance.baseUrl;
  const recorded = connection.recordedFrom;
  if (!named || !recorded || instanceOf(named) === instanceOf(recorded)) return null;
  return `the snapshot was recorded from ${recorded}, not ${named} (the instance this run names): its findings are that instance's`;
}

/** Opens the connection, runs `fn`, and always closes it. */
export async function withConnection<T>(
  options: CheckOptions,
  prepared: PreparedRun,
  fn: (connection: Connection) => Promise<T>,
): Promise<T> {
  const connection = await openConnection(options, prepared);
  try {
    return await fn(connection);
  } finally {
    await connection.close();
  }
}
