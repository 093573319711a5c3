// The message each channel gets for one digest: Slack Block Kit (an incoming webhook), a Microsoft
// Teams Adaptive Card (a Workflows webhook: `{type: "message", attachments: [card]}`), and the
// generic webhook's JSON, whose schema is published (NOTIFICATION_SCHEMA). At most
// NOTIFY_MAX_ITEMS changes are listed; the rest are counted.

import { closedSchema } from '../core/schema-id.js';

/** Changes listed per message; more are counted ("and 12 more"). */
export const NOTIFY_MAX_ITEMS = 20;

export interface NotificationChange {
  change: 'new' | 'reopened' | 'fixed';
  policy: string;
  severity: string;
  resource: string;
  message: string;
  /** Who owns the resource (`USER Ana Ruiz (7)`), null when unknown or fixed. */
  owner: string | null;
  /** The team the `owners:` map routes it to, or null. */
  team: string | null;
}

export interface NotificationDigest {
  instance: string;
  startedAt: string;
  gate: string;
  violations: number;
  /** The CI run that sent it (GitHub Actions), or null. */
  runUrl: string | null;
  counts: { new: number; reopened: number; fixed: number };
  changes: NotificationChange[];
}

export const NOTIFICATION_SCHEMA = closedSchema('notification', 'steward notification', {
  description: "The body steward POSTs to a generic webhook (notify: type webhook): what changed since the previous run. Signed in X-Steward-Signature-256: sha256=<hex HMAC-SHA256 of the raw body> when a secret is set.",
  required: ['schemaVersion', 'tool', 'instance', 'startedAt', 'gate', 'violations', 'runUrl', 'counts', 'changes', 'omitted'],
  properties: {
    schemaVersion: { const: 1 },
    tool: { const: 'steward' },
    instance: { type: 'string' },
    startedAt: { type: 'string', format: 'date-time' },
    gate: { enum: ['pass', 'fail', 'error'] },
    violations: { type: 'integer', minimum: 0 },
    runUrl: { type: ['string', 'null'] },
    counts: {
      type: 'object',
      additionalProperties: false,
      required: ['new', 'reopened', 'fixed'],
      properties: { new: { type: 'integer', minimum: 0 }, reopened: { type: 'integer', minimum: 0 }, fixed: { type: 'integer', minimum: 0 } },
    },
    changes: {
      type: 'array',
      maxItems: NOTIFY_MAX_ITEMS,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['change', 'policy', 'severity', 'resource', 'message', 'owner', 'team'],
        properties: {
          change: { enum: ['new', 'reopened', 'fixed'] },
          policy: { type: 'string' },
          severity: { enum: ['critical', 'high', 'medium', 'low', 'info'] },
          resource: { type: 'string' },
          message: { type: 'string' },
          owner: { type: ['string', 'null'], description: 'who owns the resource on the platform, e.g. `USER Ana Ruiz (7)`; null when unknown' },
          team: { type: ['string', 'null'], description: "the team the config's owners: map routes it to; null when none" },
        },
      },
    },
    omitted: { type: 'integer', minimum: 0, description: 'changes beyond the first NOTIFY_MAX_ITEMS, counted only' },
  },
});

const headline = (d: NotificationDigest) =>
  `steward on ${d.instance}: ${d.counts.new} new, ${d.counts.reopened} reopened, ${d.counts.fixed} fixed (${d.gate}, ${d.violations} violations)`;

const line = (c: NotificationChange) => {
  const who = [c.team ? `team ${c.team}` : '', c.owner ?? ''].filter(Boolean).join(', ');
  return `${c.change} · ${c.severity} · ${c.policy} · ${c.resource}: ${c.message}${who ? ` (${who})` : ''}`;
};

/** Slack mrkdwn: `&`, `<`, `>` are its only escapes (text from the instance cannot make a link or mention). */
const slackText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function notificationPayload(type: 'slack' | 'teams' | 'webhook', d: NotificationDigest): unknown {
  const listed = d.changes.slice(0, NOTIFY_MAX_ITEMS);
  const omitted = d.changes.length - listed.length;
  const more = omitted > 0 ? `and ${omitted} more` : null;
  if (type === 'webhook') {
    return { schemaVersion: 1, tool: 'steward', instance: d.instance, startedAt: d.startedAt, gate: d.gate, violations: d.violations, runUrl: d.runUrl, counts: d.counts, changes: listed, omitted };
  }
  if (type === 'slack') {
    return {
      text: headline(d),
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: headline(d).slice(0, 150) } },
        ...(listed.length ? [{ type: 'section', text: { type: 'mrkdwn', text: listed.map((c) => `• ${slackText(line(c))}`).join('\n').slice(0, 3000) } }] : []),
        ...(more ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: more }] }] : []),
        ...(d.runUrl ? [{ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open the run' }, url: d.runUrl }] }] : []),
      ],
    };
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: headline(d), weight: 'Bolder', wrap: true },
            ...listed.map((c) => ({ type: 'TextBlock', text: line(c), wrap: true, spacing: 'Small' })),
            ...(more ? [{ type: 'TextBlock', text: more, isSubtle: true }] : []),
          ],
          ...(d.runUrl ? { actions: [{ type: 'Action.OpenUrl', title: 'Open the run', url: d.runUrl }] } : {}),
        },
      },
    ],
  };
}
