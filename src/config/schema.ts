// JSON Schema of steward.yaml (DESIGN §4). The build publishes it as schema/config.schema.json
// so editors can validate the file; test/config checks the published copy is up to date.
import { ENFORCEMENTS, GOVERNED_WAIVER_FIELDS, SEVERITIES } from '../core/model.js';
import { closedSchema } from '../core/schema-id.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import type { KindInputs } from '../resources/types.js';
import { ENV_REF_PATTERN } from './env-ref.js';

/**
 * The rates a config may ask for: below one request in ten seconds a run of a few hundred reads
 * outlasts any CI job (1e-9 would wait 30 years for its second request); above 1000 the cap means
 * nothing next to the concurrency limit.
 */
/** `90s`, `30m`, `2h`: a whole number and a unit; from 1 s to 24 h. */
export const DURATION_PATTERN = '^[1-9][0-9]*(s|m|h)$';
/** The config's other patterns, one name each: validate.ts words each one's failure. */
export const URL_PATTERN = '^https?://';
export const TOKEN_ID_PATTERN = '^[0-9]+$';
export const HEADER_NAME_PATTERN = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
export const INSTANCE_NAME_PATTERN = '^[a-z0-9][a-z0-9_-]{0,39}$';
export const DAYS_PATTERN = '^[1-9][0-9]*d$';
const DURATION_UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;
const MAX_RUN_TIMEOUT_MS = 24 * 3_600_000;

/** Milliseconds of a `DURATION_PATTERN` value, or null when it is not one (or over 24 h). */
export function durationMs(text: string): number | null {
  if (!new RegExp(DURATION_PATTERN).test(text)) return null;
  const ms = Number(text.slice(0, -1)) * DURATION_UNIT_MS[text.slice(-1) as keyof typeof DURATION_UNIT_MS];
  return ms <= MAX_RUN_TIMEOUT_MS ? ms : null;
}

export const REQUESTS_PER_SECOND_BOUNDS = { minimum: 0.1, maximum: 1000 } as const;

const fileRef = {
  type: 'object',
  additionalProperties: false,
  required: ['file'],
  properties: { file: { type: 'string', minLength: 1, description: 'a text file, one entry a line (# comments allowed)' } },
};

const ids = { anyOf: [{ type: 'array', items: { type: ['string', 'integer'] } }, fileRef] };

/** `all`, or `{ all: true, ids?, exclude? }`: discovered through the kind's listing. */
const discovery = (extra: Record<string, unknown> = {}) => [
  { const: 'all' },
  {
    type: 'object',
    additionalProperties: false,
    required: ['all'],
    properties: {
      all: { const: true },
      ...extra,
      exclude: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'ids or globs (* and ?) to leave out' },
    },
  },
];

/**
 * The shapes of a `scope.<key>` id list, each defined once (ID_LIST_DEFINITIONS): a config names
 * about fifteen lists twice (the config's scope and an instance's), and compiling each shape
 * once (with Ajv's `inlineRefs: false`) took the validator's compile from ~240 to ~60 ms. The
 * `anyOf` stays at the list, with its description: a value that fits no shape is worded by it.
 */
const ID_LIST_SHAPES = [...ids.anyOf, ...discovery({ ids })];
const ID_LIST_DEFINITIONS = Object.fromEntries(ID_LIST_SHAPES.map((shape, i) => [`idList${i}`, shape]));

const idList = (what: string) => ({
  description: `a list of ${what} ids, { file: path } with one id a line, or \`all\` (every ${what} the listing gives; \`{ all: true, ids: [...], exclude: [...] }\` to add and leave out)`,
  anyOf: Object.keys(ID_LIST_DEFINITIONS).map((name) => ({ $ref: `#/definitions/${name}` })),
});

const globs = (what: string) => ({
  description: `a glob (or list of globs) of ${what} manifest files, relative to this file; * ? and ** are supported`,
  anyOf: [
    { type: 'string', minLength: 1 },
    { type: 'array', items: { type: 'string', minLength: 1 } },
  ],
});

const url = (what: string) => ({
  type: 'string',
  pattern: URL_PATTERN,
  description: what,
});

const pathsPerSet = (what: string) => ({
  description: `{ <file set id>: [paths] } or { <file set id>: { file: path } }: the ${what}s to check; or \`all\` (every ${what} of every file set; exclude set ids or <set id>:<path> globs)`,
  anyOf: [
    ...discovery(),
    {
      type: 'object',
      additionalProperties: {
        description: 'a list of file paths in the file set, or { file: path } with one path a line',
        anyOf: [{ type: 'array', items: { type: 'string', minLength: 1 } }, fileRef],
      },
    },
  ],
});

const inputsOfKinds = (): KindInputs[] => Object.values(RESOURCE_KINDS).map((k) => k.inputs);

/** `scope.<key>` for each kind with a scope input (the registry decides which keys exist). */
function scopeProperties(): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const { scope } of inputsOfKinds()) {
    if (scope) props[scope.key] = scope.shape === 'ids' ? idList(scope.description) : pathsPerSet(scope.description);
  }
  return props;
}

/** `manifests.<key>` for each kind declared in manifests. */
function manifestProperties(): Record<string, unknown> {
  const props: Record<string, unknown> = {};
  for (const { manifests } of inputsOfKinds()) if (manifests) props[manifests.key] = globs(manifests.description);
  return props;
}

export const CONFIG_SCHEMA = closedSchema('config', 'steward.yaml', {
  description: 'Configuration of a steward run. Tokens never go here: set STEWARD_TOKEN (and STEWARD_WORKFLOW_TOKEN).',
  properties: {
    instance: {
      type: 'object',
      additionalProperties: false,
      description: 'the instance to check',
      properties: {
        baseUrl: url('instance base URL (or STEWARD_BASE_URL)'),
        workflowUrl: url(
          'workflow API base URL, the public API host (or STEWARD_WORKFLOW_URL); without it workflows are read from the instance host',
        ),
        allowInsecureHttp: {
          type: 'boolean',
          description: 'allow an http:// base or workflow URL to a host that is not loopback (the token then crosses the network in clear; warned on every run)',
        },
        tokenId: {
          type: ['string', 'integer'],
          pattern: TOKEN_ID_PATTERN,
          minimum: 0,
          description: "the access-token id of the developer token in use (Admin › Security › Access tokens; not the token itself): check and doctor warn when it expires within tokenWarningDays",
        },
        tokenWarningDays: {
          type: 'integer',
          minimum: 0,
          maximum: 365,
          description: 'warn in every report when the token in use (instance.tokenId) expires within this many days (default 14)',
        },
        tokenHeader: {
          type: 'string',
          pattern: HEADER_NAME_PATTERN,
          description: 'header carrying the developer token (default X-SERVICE-Developer-Token; the real platform: X-DOMO-Developer-Token)',
        },
        scheduleFilter: {
          enum: ['ALL', 'USER', 'OWNER', 'RECIPIENT'],
          description:
            'filter of the report-schedule list (default ALL, which needs the content admin grant; USER checks only the token user’s schedules)',
        },
        pageSize: {
          type: 'integer',
          minimum: 1,
          maximum: 2000,
          description: 'items per limit/skip page (default 100, the documented default; public clients use up to 2000)',
        },
      },
    },
    instances: {
      type: 'object',
      description: 'several instances in one run (instead of instance:): each name with its base URL and the variable holding its token; `--instance NAME` picks some',
      propertyNames: { pattern: INSTANCE_NAME_PATTERN },
      minProperties: 1,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['baseUrl', 'token'],
        properties: {
          baseUrl: url('the instance base URL'),
          token: { type: 'string', pattern: ENV_REF_PATTERN, description: 'env:NAME: the environment variable holding its developer token (a token never goes in this file)' },
          workflowUrl: url('its workflow API base URL'),
          workflowToken: { type: 'string', pattern: ENV_REF_PATTERN, description: 'env:NAME of its workflow API token' },
          tokenHeader: { type: 'string', pattern: HEADER_NAME_PATTERN, description: 'header carrying its developer token' },
          tokenId: { type: ['string', 'integer'], pattern: TOKEN_ID_PATTERN, minimum: 0, description: 'the access-token id of its token, to warn before it expires' },
          requestsPerSecond: { type: 'number', ...REQUESTS_PER_SECOND_BOUNDS, description: 'its own request rate (default: the config\'s)' },
          pageSize: { type: 'integer', minimum: 1, maximum: 2000, description: 'items per limit/skip page' },
          scope: { type: 'object', additionalProperties: false, description: 'its own scope, replacing the config\'s', properties: scopeProperties() },
        },
      },
    },
    policies: {
      description: 'policy files or folders, relative to this file; "builtin" is the shipped pack; "@scope/name" (or "npm:name") an installed npm package whose package.json names its policies in steward.policies',
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', items: { type: 'string', minLength: 1 } },
      ],
    },
    params: {
      type: 'object',
      description: 'per-policy parameter overrides: { <policy id>: { <param>: value } }',
      additionalProperties: { type: 'object' },
    },
    enforcement: {
      type: 'object',
      description: 'per-policy enforcement level: { <policy id>: advisory | soft | hard } (overrides the policy file)',
      additionalProperties: { enum: [...ENFORCEMENTS] },
    },
    scope: {
      type: 'object',
      additionalProperties: false,
      description: 'what the API cannot list, named by the user',
      properties: scopeProperties(),
    },
    manifests: {
      type: 'object',
      additionalProperties: false,
      description: 'declared permission state kept in the repo',
      properties: manifestProperties(),
    },
    waivers: { type: 'string', minLength: 1, description: 'waivers file, relative to this file' },
    history: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['path'],
          properties: {
            path: { anyOf: [{ type: 'string', minLength: 1 }, { const: true }], description: 'the history: a file, env:NAME, or true for .steward/history.sqlite' },
            keep: {
              anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: DAYS_PATTERN }],
              description: 'how much of each instance\'s past is kept in detail: a number of runs, or days (`90d`); older runs keep only their totals (default 365d)',
            },
          },
        },
      ],
      description:
        'run history: an SQLite file relative to this file, or env:NAME of a variable holding a PostgreSQL URL (a URL never goes in this file); `check` records every run and reports each finding as new, open or reopened; true: .steward/history.sqlite beside this file; false or absent: not recorded',
    },
    waiverRules: {
      type: 'object',
      additionalProperties: false,
      description: 'what a waiver may do',
      properties: {
        allowCatchAll: {
          type: 'boolean',
          description: 'false refuses waivers whose resource is `*` (every resource of a policy); default true, with a warning in every report',
        },
        require: {
          type: 'array',
          uniqueItems: true,
          items: { enum: [...GOVERNED_WAIVER_FIELDS] },
          description: 'optional waiver fields every waiver must have: approver, ticket, risk, created',
        },
      },
    },
    notify: {
      type: 'array',
      description: 'where a run sends a digest of what changed (new, reopened and fixed findings since the previous run, from the history): Slack, Microsoft Teams or a signed generic webhook',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'url'],
        properties: {
          type: { enum: ['slack', 'teams', 'webhook'], description: 'slack: an incoming webhook (Block Kit); teams: a Workflows webhook (an Adaptive Card); webhook: JSON (schema/notification.schema.json), signed when a secret is set' },
          url: { type: 'string', pattern: ENV_REF_PATTERN, description: 'env:NAME: the environment variable holding the webhook URL (a URL is a secret: never in this file)' },
          secret: { type: 'string', pattern: ENV_REF_PATTERN, description: 'webhook only: env:NAME of the HMAC-SHA256 key; the body is signed in X-Steward-Signature-256: sha256=<hex>' },
          on: { enum: ['change', 'always'], description: 'change (default): only when something is new, reopened or fixed since the previous run; always: every run' },
          teams: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', minLength: 1 }, description: "only the changes the owners: map routes to these teams" },
        },
      },
    },
    owners: {
      type: 'array',
      description: "routes findings to teams, like CODEOWNERS: the first rule whose every given criterion matches names the finding's team (a rule with none matches everything)",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['team'],
        properties: {
          team: { type: 'string', minLength: 1, description: 'the team findings matching this rule go to' },
          policies: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'policy ids or globs (`datasets-*`)' },
          kinds: { type: 'array', minItems: 1, items: { enum: Object.keys(RESOURCE_KINDS) }, description: 'resource kinds' },
          tags: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'policy tags (any of them)' },
          ownerGroups: { type: 'array', minItems: 1, items: { type: ['string', 'integer'] }, description: 'ids of groups owning the resource on the platform' },
          owners: { type: 'array', minItems: 1, items: { type: ['string', 'integer'] }, description: 'users owning the resource on the platform, by id or email' },
        },
      },
    },
    acceptPartialCoverage: {
      type: 'array',
      uniqueItems: true,
      items: { enum: Object.keys(RESOURCE_KINDS) },
      description: 'kinds whose known-partial listing (e.g. report schedules listed with filter USER) the run accepts: their policies then decide the gate; otherwise a failOn-level policy over a partial kind is exit 3',
    },
    waiverWarningDays: {
      type: 'integer',
      minimum: 0,
      maximum: 365,
      description: 'active waivers ending within this many days are warned about in every report (default 30)',
    },
    failOn: {
      enum: [...SEVERITIES, 'none'],
      description: 'lowest severity of an unwaived violation that fails the run (default low)',
    },
    concurrency: { type: 'integer', minimum: 1, maximum: 64, description: 'max concurrent requests (default 8)' },
    timeout: {
      type: 'string',
      pattern: DURATION_PATTERN,
      description: 'deadline of a whole run, e.g. 90s, 30m, 2h (default 30m): past it, the run stops with exit 3',
    },
    requestsPerSecond: {
      type: 'number',
      ...REQUESTS_PER_SECOND_BOUNDS,
      description: 'optional cap of requests per second (0.1 to 1000)',
    },
  },
  definitions: ID_LIST_DEFINITIONS,
});
