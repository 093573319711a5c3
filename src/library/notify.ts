// Notifications on change (`notify:` in the config, `steward notify --from REPORT`): one digest
// per channel of what changed since the previous run (new and reopened violations, fixed
// findings; from the run history), as Slack Block Kit, a Microsoft Teams Adaptive Card (through a
// Workflows webhook) or JSON for a generic webhook (schema/notification.schema.json), signed with
// HMAC-SHA256 of the raw body like GitHub's X-Hub-Signature-256. A delivery that fails is
// retried, then reported as a warning and a `notifications` record: never silent, never a change
// of the exit code (the gate judges the instance, not the chat).
import { hmacSha256 } from '../core/digest.js';
import { networkCodeOf } from '../api/answer-text.js';
import path from 'node:path';
import { loadConfig, type NotifyTarget } from '../config/index.js';
import { instancePrefix, type NotificationRecord, type Report } from '../core/model.js';
import { displayPath } from '../core/display-path.js';
import { ownerLabel } from '../core/owner.js';
import { InputError } from '../core/problem.js';
import { readReportFile } from './history.js';
import { type NotificationChange, type NotificationDigest, NOTIFY_MAX_ITEMS, notificationPayload } from './notify-payloads.js';

/** Attempts per delivery (the first and two retries), at NOTIFY_RETRY_DELAY_MS apart. */
export const NOTIFY_ATTEMPTS = 3;
export const NOTIFY_RETRY_DELAY_MS = 500;
/** How long one attempt waits for an answer. */
export const NOTIFY_TIMEOUT_MS = 10_000;
/** The header carrying the generic webhook's signature: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const SIGNATURE_HEADER = 'X-Steward-Signature-256';

export interface NotifyOptions {
  env: Record<string, string | undefined>;
  /** Prints instead of sending. */
  dryRun?: boolean;
  /** Redacts the run's secrets (a URL, a key, a token an instance echoed) from what is sent and said. */
  redact(text: string): string;
  /** Attempts' spacing and each one's wait for an answer (tests shorten them). */
  retryDelayMs?: number;
  timeoutMs?: number;
}

export interface NotifyOutcome {
  records: NotificationRecord[];
  warnings: string[];
  /** With dryRun: what would have been sent, per channel (no URL, no key). */
  planned: { type: NotifyTarget['type']; destination: string; headers: Record<string, string>; body: unknown }[];
}

/** What changed in this run, from its history: new and reopened violations, fixed findings. */
export function digestOf(report: Report, env: Record<string, string | undefined>, teams: readonly string[] | null = null): NotificationDigest {
  const changes: NotificationChange[] = [];
  // `teams:` on a channel: only what the owners: map routes to one of them.
  const routed = (team: string | null | undefined) => teams === null || (typeof team === 'string' && teams.includes(team));
  const where = (instance: string | undefined) => instancePrefix(report, instance);
  for (const f of report.findings) {
    if (f.status !== 'violation' || (f.lifecycle !== 'new' && f.lifecycle !== 'reopened') || !routed(f.team)) continue;
    const resource = `${where(f.instance)}${f.resource.kind}/${f.resource.id}${f.path ? ` ${f.path}` : ''}`;
    changes.push({ change: f.lifecycle, policy: f.policy, severity: f.severity, resource, message: f.message, owner: ownerLabel(f) || null, team: f.team ?? null });
  }
  for (const f of report.fixed ?? []) {
    if (!routed(f.team)) continue;
    changes.push({ change: 'fixed', policy: f.policy, severity: f.severity, resource: `${where(f.instance)}${f.resource.kind}/${f.resource.id}`, message: f.message, owner: null, team: f.team ?? null });
  }
  const count = (c: NotificationChange['change']) => changes.filter((x) => x.change === c).length;
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env;
  return {
    instance: report.instance,
    startedAt: report.startedAt,
    gate: report.summary.gate,
    violations: report.summary.violations,
    runUrl: server && repo && run ? `${server}/${repo}/actions/runs/${run}` : null,
    counts: { new: count('new'), reopened: count('reopened'), fixed: count('fixed') },
    changes,
  };
}

export async function sendNotifications(report: Report, targets: readonly NotifyTarget[], options: NotifyOptions): Promise<NotifyOutcome> {
  const outcome: NotifyOutcome = { records: [], warnings: [], planned: [] };
  for (const target of targets) {
    const digest = digestOf(report, options.env, target.teams);
    const changed = digest.changes.length > 0;
    const destination = `env:${target.url.variable}`;
    const record: NotificationRecord = { type: target.type, destination, sent: false, attempts: 0, status: null, items: Math.min(digest.changes.length, NOTIFY_MAX_ITEMS), error: null };
    outcome.records.push(record);
    const skip = (error: string, warn = true) => {
      record.error = error;
      if (warn) outcome.warnings.push(`notify ${target.type} (${destination}): ${error}: nothing sent`);
    };
    if (target.on === 'change' && !report.history) {
      skip('on: change needs a run history (history: true, or --history)');
      continue;
    }
    if (target.on === 'change' && !changed) {
      skip('nothing changed since the previous run', false);
      continue;
    }
    if (!target.url.value) {
      skip(`${target.url.variable} is not set`);
      continue;
    }
    if (target.secret && !target.secret.value) {
      skip(`its signing key ${target.secret.variable} is not set (an unsigned message would be accepted by no receiver that checks)`);
      continue;
    }
    // The message leaves for another host: no secret in any form (an owner's name, a path or a
    // message may carry one an instance echoed), redacted as every file steward writes is.
    const body = options.redact(JSON.stringify(notificationPayload(target.type, digest)));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (target.secret?.value) headers[SIGNATURE_HEADER] = `sha256=${hmacSha256(target.secret.value, body)}`;
    if (options.dryRun) {
      outcome.planned.push({ type: target.type, destination, headers, body: JSON.parse(body) });
      skip('dry run', false);
      continue;
    }
    const notDelivered = (cause: string) => {
      record.error = options.redact(`not delivered after ${record.attempts} attempt${record.attempts === 1 ? '' : 's'}: ${cause}`);
      outcome.warnings.push(`notify ${target.type} (${destination}): ${record.error}`);
    };
    // Loaded here, by the first message sent; an instance of the global fetch, made as it sends
    // (the built program's ofetch makes none as it loads: scripts/on-use.mjs, ofetchCreateOnly).
    const { FetchError, createFetch } = await import('ofetch');
    const timeoutMs = options.timeoutMs ?? NOTIFY_TIMEOUT_MS;
    try {
      const response = await createFetch().raw(target.url.value, {
        method: 'POST',
        body,
        headers,
        retry: NOTIFY_ATTEMPTS - 1,
        // Stryker disable next-line LogicalOperator: the spacing of attempts, not their outcome
        retryDelay: options.retryDelayMs ?? NOTIFY_RETRY_DELAY_MS,
        retryStatusCodes: [408, 409, 425, 429, 500, 502, 503, 504],
        timeout: timeoutMs,
        // The body and its signature go to the host configured, never to one a redirect names.
        redirect: 'manual',
        onRequest: () => {
          record.attempts += 1;
        },
      });
      record.status = response.status;
      // ofetch throws on 4xx and 5xx; a 3xx comes back, and was delivered to no one.
      if (response.status >= 300) notDelivered(`${response.status} ${response.statusText}`.trim() + ', a redirect steward does not follow (the URL has moved)');
      else record.sent = true;
    } catch (e) {
      // The error's own message names the URL: only the status or the network code is kept.
      const status = e instanceof FetchError ? e.response?.status : undefined;
      record.status = status ?? null;
      // Stryker disable next-line StringLiteral: a FetchError with a status has its response
      notDelivered(status ? `${status} ${(e as InstanceType<typeof FetchError>).response?.statusText ?? ''}`.trim() : noAnswer(e, timeoutMs));
    }
  }
  return outcome;
}

/**
 * Why a request had no answer: its network code (ECONNREFUSED, ENOTFOUND; fetch wraps the
 * socket's error, as the client's reads see it), or the attempt's time running out (ofetch's
 * error wraps the timeout's).
 */
export function noAnswer(error: unknown, timeoutMs: number): string {
  const code = networkCodeOf(error);
  if (code) return code;
  const timedOut = [error, (error as { cause?: unknown } | null)?.cause].some((e) => (e as { name?: unknown } | null | undefined)?.name === 'TimeoutError');
  return timedOut ? `no answer within ${timeoutMs / 1000} s` : 'no answer';
}

export interface NotifyFromOptions {
  /** A JSON report (`check --format json`), relative to the cwd. */
  from: string;
  config?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
  dryRun?: boolean;
}

/** `steward notify --from REPORT.json`: what the run that wrote the report would have sent. */
export async function notifyFrom(options: NotifyFromOptions): Promise<NotifyOutcome> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const config = loadConfig({ configPath: options.config, cwd, env });
  // A job that only notifies and finds no channel would succeed having told no one.
  if (config.notify.length === 0) {
    const file = config.file ? displayPath(config.file, cwd) : '(config)';
    throw new InputError([{ file, line: 0, column: 0, message: 'names no notify: channels: nothing to send the report to (README, Notifications on change)' }]);
  }
  const report = await readReportFile(path.resolve(cwd, options.from), cwd);
  return sendNotifications(report, config.notify, { env, dryRun: options.dryRun, redact: (t) => config.secrets.redact(t) });
}

