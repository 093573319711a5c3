// What a command that evaluates does with the flags of run-options.ts: the library's
// CheckOptions, with the --verbose request log and TTY-only progress, and the in-process
// sandbox of --sandbox. Loaded when such a command runs, never for its --help.
import type { CheckOptions, RequestLogEvent } from '../library/index.js';
import { demoConfigPath, parseOverride, type ProgressEvent, ProgressState, RESOURCE_KIND_NAMES } from '../library/without-policies.js';
import { monotonicMs } from '../library/startup.js';
import type { CliIo } from './io.js';
import { columnsOf, secretsOf, warn } from './io.js';
import { chosenConfig } from './config-choice.js';
import type { RunFlags } from './run-options.js';

/** `GET http://…/api/… → 200 (12 ms)` lines; the URL never holds the token (it is a header). */
export function requestLogger(io: CliIo) {
  return (e: RequestLogEvent): void => {
    const outcome = e.status !== undefined ? String(e.status) : (e.error ?? 'no answer');
    const retry = e.attempt > 1 ? ` attempt ${e.attempt}` : '';
    warn(io, `${e.method} ${e.url} → ${outcome} (${Math.round(e.durationMs)} ms)${retry}`);
  };
}

/** Least time between two redraws of the progress line (a kind finishing always redraws). */
export const PROGRESS_REDRAW_MS = 100;

/**
 * On a TTY only: one stderr line for all kinds, rewritten in place, kept one column short of
 * the terminal so it never wraps. The commands clear it before the report.
 */
export function progressReporter(io: CliIo): ((e: ProgressEvent) => void) | undefined {
  if (!io.stderr.isTTY || io.quiet) return undefined;
  const state = new ProgressState(RESOURCE_KIND_NAMES);
  let drawnAt = Number.NEGATIVE_INFINITY;
  return (e) => {
    state.update(e);
    const now = monotonicMs();
    if (e.read < e.total && now - drawnAt < PROGRESS_REDRAW_MS) return;
    drawnAt = now;
    const columns = columnsOf(io.stderr);
    io.stderr.write(`\r\x1b[2K${state.line(columns - 1)}`);
  };
}

/**
 * Runs `fn` with the options of `flags`; with --sandbox, against an in-process demo instance
 * (its URL and token in the options, the demo config unless --config) for the command's duration.
 */
export async function withTarget<T>(flags: RunFlags, io: CliIo, fn: (options: CheckOptions) => Promise<T>): Promise<T> {
  const options = checkOptionsFrom(flags, io);
  if (!flags.sandbox) return fn({ ...options, config: chosenConfig(flags, io) });
  // Loaded only here: the emulated instance (its server, data and node:http) is no part of a real run.
  const { startSandbox } = await import('../sandbox/index.js');
  const sandbox = await startSandbox();
  // From here on the sandbox's tokens are secrets of the run like the environment's.
  secretsOf(io).add(sandbox.token, sandbox.workflowToken);
  try {
    return await fn({
      ...options,
      config: options.config ?? demoConfigPath(),
      baseUrl: sandbox.baseUrl,
      workflowUrl: sandbox.workflowUrl,
      token: sandbox.token,
      workflowToken: sandbox.workflowToken,
    });
  } finally {
    await sandbox.close();
  }
}

export function checkOptionsFrom(flags: RunFlags, io: CliIo): CheckOptions {
  return {
    config: flags.config,
    cwd: io.cwd,
    env: io.env,
    baseUrl: flags.baseUrl,
    workflowUrl: flags.workflowUrl,
    policies: flags.policies,
    only: flags.only,
    ...(flags.skip ? { skip: flags.skip } : {}),
    ...(flags.severity ? { severity: flags.severity } : {}),
    failOn: flags.failOn,
    concurrency: flags.concurrency,
    timeout: flags.timeout,
    ...(flags.override ? { overrides: flags.override.map(parseOverride) } : {}),
    ...(flags.framework ? { framework: flags.framework } : {}),
    from: flags.from,
    ...(flags.instance?.length ? { instances: flags.instance } : {}),
    baseline: flags.baseline,
    writeBaseline: flags.writeBaseline,
    ...(flags.allowEmpty ? { allowEmpty: true } : {}),
    ...(flags.history ? { history: flags.history } : {}),
    ...(flags.output?.length ? { reportFiles: flags.output.map((o) => ({ name: `--output ${o.format}=${o.path}`, file: o.path })) } : {}),
    onRequest: flags.verbose ? requestLogger(io) : undefined,
    onProgress: progressReporter(io),
  };
}
