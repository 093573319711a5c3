// Drift: one value of one answer changed by a proxy in front of the demo instance, over real
// HTTP. A value of another JSON type (a string where a number was, an object where a list
// was…): the run's verdict is the clean one (the same findings) or exit 3, never another. A word
// never heard of where a vocabulary word was (an access level, a state, a principal type), a
// field removed or a value nulled: it may add a violation (the word is no manifest's, no
// SHA-256; a field steward needs is missing) but never take one away, but by exit 3, except on
// the fields listed where the platform itself uses absence or null for "none".
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS, type OperationId, operation } from '../../src/api/operations.js';
import type { Report } from '../../src/core/model.js';
import { check } from '../../src/library/index.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const TOKEN = 'tok-drift-run-0001';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** Where a value sits in an answer: object keys and list indexes from the top. */
type Position = (string | number)[];

/** Every value of `value` but the whole answer that `take` accepts (with its key or index), depth first. */
function positions(value: Json, take: (v: Json, key: string | number) => boolean, at: Position = [], out: Position[] = []): Position[] {
  const key = at.at(-1);
  if (key !== undefined && take(value, key)) out.push(at);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) positions(v, take, [...at, i], out);
  } else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) positions(v, take, [...at, k], out);
  return out;
}

/**
 * A value no reader may take for `was`: of another JSON type, never null, and never a number for
 * a string of digits (nor the reverse), which a platform may legitimately send either way.
 */
function otherType(was: Json, pick: number): Json {
  const numeric = typeof was === 'number' || (typeof was === 'string' && /^-?\d+(\.\d+)?$/.test(was));
  const choices: Json[] = [];
  if (typeof was !== 'string') choices.push('drifted');
  if (!numeric) choices.push(987654);
  if (typeof was !== 'boolean') choices.push(true);
  if (Array.isArray(was) || typeof was !== 'object') choices.push({ drifted: 1 });
  if (!Array.isArray(was)) choices.push(['drifted']);
  return choices[pick % choices.length] as Json;
}

/** What is changed, into what, and what the run may then answer. */
interface Mutation {
  name: string;
  takes: (v: Json, key: string | number) => boolean;
  into: (was: Json, pick: number) => Json;
  /** `same`: the clean verdict or exit 3. `stricter`: no clean violation lost, or exit 3. */
  judged: 'same' | 'stricter';
  /** Values alike for this mutation: one of each class is tried (with the field, list indexes left out). */
  classOf: (v: Json) => string;
  /** At most this many classes are tried, a seeded sample (STEWARD_DRIFT_ALL: every value). */
  sample: number;
  /** Fields (operation and path, `#` for list indexes) where the change is another true answer, with why. */
  exempt?: Readonly<Record<string, string>>;
}

const ANOTHER_TYPE: Mutation = { name: 'a value of another type', takes: (v) => v !== null, into: otherType, judged: 'same', classOf: () => '', sample: 60 };
/** Fields the platform leaves out, or sends null, for "none": so read, either truly changes the answer. */
const NONE_WHEN_ABSENT_OR_NULL = {
  'listReportSchedules #.cardId': 'a schedule without a card sends none (NO_ID, README "Assumptions")',
  'listDatasets dataSources.#.certification': 'a dataset never certified has none (a captured search answer has no certification)',
  'getPdpPolicies #.userIds': 'the captured All Rows policy names no users and has no userIds',
  'getPdpPolicies #.groupIds': 'the captured All Rows policy names no groups and has no groupIds',
};

/** What `into` answers for a field to be left out of its object (a list item is replaced by it). */
const REMOVE = Symbol('remove');
// Fields only: a list without one of its items is another true answer (one access entry fewer).
const REMOVED: Mutation = {
  name: 'a field removed',
  takes: (_v, key) => typeof key === 'string',
  into: () => REMOVE as unknown as Json,
  judged: 'stricter',
  classOf: () => '',
  sample: 40,
  exempt: {
    ...NONE_WHEN_ABSENT_OR_NULL,
    'getQueuePermissions USER': 'no user permissions (a practitioner reads `data?.USER || []`)',
    'getQueuePermissions GROUP': 'no group permissions, as USER',
    'getWorkflowPermissions USER': 'no user permissions (a practitioner reads `data?.USER || []`)',
    'getWorkflowPermissions GROUP': 'no group permissions, as USER',
  },
};

/** An owner id of null is the platform naming none (README "Owners and teams"): no owner to be live. */
const NO_OWNER = 'null is the platform naming no owner (README "Owners and teams")';
const NULLED: Mutation = {
  name: 'a value nulled',
  takes: (v) => v !== null,
  into: () => null,
  judged: 'stricter',
  classOf: () => '',
  sample: 40,
  exempt: {
    ...NONE_WHEN_ABSENT_OR_NULL,
    'getCertificationStatus state': 'never certified (the certification endpoint\'s docs)',
    'listReportSchedules #.ownerId': NO_OWNER,
    'listDatasets dataSources.#.owner': NO_OWNER,
    'searchCards searchObjects.#.ownedById': NO_OWNER,
    'listQueues #.owner': NO_OWNER,
    'listDataFiles #.responsibleUserId': NO_OWNER,
    'searchFilesets fileSets.#.owner': NO_OWNER,
    'listWorkflows #.owner': NO_OWNER,
  },
};
/** Vocabulary words are upper-case constants on this platform (OWNER, CAN_VIEW, ACTIVE, USER…). */
const UNHEARD_WORD: Mutation = {
  name: 'a word never heard of',
  takes: (v) => typeof v === 'string' && /^[A-Z][A-Z0-9_]+$/.test(v),
  into: () => 'UNHEARD_OF',
  judged: 'stricter',
  // Each word of a field apart: ACTIVE and EXPIRED states are read differently.
  classOf: (v) => String(v),
  sample: 150,
};

function valueAt(value: Json, at: Position): Json {
  return at.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k] as Json, value);
}

function replaced(value: Json, at: Position, into: (was: Json) => Json): Json {
  const [head, ...rest] = at;
  if (head === undefined) return into(value);
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaced(v, rest, into) : v));
  const object = value as Record<string, Json>;
  const inner = replaced(object[head as string] as Json, rest, into);
  if (inner === (REMOVE as unknown as Json)) return Object.fromEntries(Object.entries(object).filter(([k]) => k !== head));
  return { ...object, [head]: inner };
}

/** One mutation of one value: the answer to `request` (method and path), the value at `at`. */
interface Drift {
  request: string;
  at: Position;
  into: (was: Json) => Json;
  label: string;
}

/** A proxy to the sandbox that records every JSON answer and applies at most one drift. */
class DriftProxy {
  readonly answers = new Map<string, Json>();
  drift: Drift | null = null;
  applied = 0;
  private server!: Server;
  base = '';

  constructor(private readonly target: URL) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = { ...req.headers, host: this.target.host, 'accept-encoding': 'identity' };
        const upstream = request({ host: this.target.hostname, port: this.target.port, method: req.method, path: req.url, headers }, (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            let text = Buffer.concat(body).toString('utf8');
            const key = `${req.method} ${req.url}`;
            if ((answer.statusCode ?? 0) < 300 && /json/.test(String(answer.headers['content-type'])) && text.length > 0) {
              const json = JSON.parse(text) as Json;
              this.answers.set(key, json);
              if (this.drift?.request === key) {
                text = JSON.stringify(replaced(json, this.drift.at, this.drift.into));
                this.applied += 1;
              }
            }
            const out = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
            delete out['transfer-encoding'];
            res.writeHead(answer.statusCode ?? 502, out);
            res.end(text);
          });
        });
        upstream.on('error', () => res.destroy());
        upstream.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let sandbox: Sandbox;
let proxy: DriftProxy;
let clean: Report;

async function run(): Promise<Report> {
  return check({
    config: 'demo/steward.yaml',
    cwd: ROOT,
    env: {},
    baseUrl: proxy.base,
    workflowUrl: `${proxy.base}${new URL(sandbox.workflowUrl).pathname}`,
    token: TOKEN,
    client: { retryBaseDelayMs: 1, retryMaxDelayMs: 5, timeoutMs: 5000 },
  });
}

/**
 * What a verdict is made of: the gate and every finding's identity and status. Not its
 * fingerprint: that hashes the offending value, which may hold the drifted value itself.
 */
function verdict(report: Report): string[] {
  return [`gate ${report.summary.gate}`, ...report.findings.map((f) => `${f.policy} ${f.resource.kind}/${f.resource.id} ${f.path ?? ''} ${f.status}`).sort()];
}

/** A small deterministic generator (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The operation a recorded request is of (its path matched against the table's templates). */
function operationOf(key: string): OperationId {
  const [method, target = ''] = key.split(' ');
  const path = decodeURIComponent(target.split('?')[0] ?? '');
  const found = OPERATION_IDS.find((id) => operation(id).method === method && new RegExp(`${operation(id).path.replace(/\{\w+\}/g, '[^/]+')}$`).test(path));
  if (!found) throw new Error(`no operation answers ${key}`);
  return found;
}

/** A value's field: its operation and path, `#` for list indexes (`getDatasetAccessList list.#.accessLevel`). */
const fieldOf = (request: string, at: Position) => `${operationOf(request)} ${at.map((k) => (typeof k === 'number' ? '#' : k)).join('.')}`;

/**
 * The drifts of `mutation` to try: one value of each class (an operation's field, list indexes
 * left out, and what `classOf` tells apart), so each field of each read is covered however few
 * values it has; at most `sample` classes; with STEWARD_DRIFT_ALL set, every value of every answer.
 */
function chooseDrifts(answers: ReadonlyMap<string, Json>, mutation: Mutation, seed: number): Drift[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T;
  const drift = (request: string, at: Position): Drift => {
    const choice = Math.floor(next() * 5);
    return { request, at, into: (was) => mutation.into(was, choice), label: `${request} at ${JSON.stringify(at)} (choice ${choice})` };
  };
  const candidates = [...answers.keys()]
    .sort()
    .map((request) => ({ request, at: positions(answers.get(request) as Json, mutation.takes).filter((a) => !mutation.exempt?.[fieldOf(request, a)]) }));
  if (process.env.STEWARD_DRIFT_ALL) return candidates.flatMap(({ request, at }) => at.map((a) => drift(request, a)));
  // One class per field and what `classOf` tells apart.
  const classes = new Map<string, { request: string; at: Position }[]>();
  for (const { request, at } of candidates) {
    for (const a of at) {
      const key = `${fieldOf(request, a)} ${mutation.classOf(valueAt(answers.get(request) as Json, a))}`;
      classes.set(key, [...(classes.get(key) ?? []), { request, at: a }]);
    }
  }
  const drifts: Drift[] = [];
  const keys = [...classes.keys()].sort();
  while (keys.length > mutation.sample) keys.splice(Math.floor(next() * keys.length), 1);
  for (const key of keys) {
    const { request, at } = pick(classes.get(key) ?? []);
    drifts.push(drift(request, at));
  }
  return drifts;
}

const SEED = Number(process.env.STEWARD_DRIFT_SEED ?? 29);
let operationsRead = 0;
beforeAll(async () => {
  sandbox = await startSandbox({ token: TOKEN });
  proxy = new DriftProxy(new URL(sandbox.baseUrl));
  await proxy.start();
  clean = await run();
  operationsRead = new Set([...proxy.answers.keys()].map(operationOf)).size;
}, 60_000);

afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

it('the clean run fails on the planted violations, reading every kind of answer', () => {
  expect(clean.summary.gate).toBe('fail');
  expect(clean.summary.errors).toBe(0);
  expect(operationsRead).toBeGreaterThan(25);
});

/** Each drift's run, and what it changed where it changed the verdict as `mutation` forbids. */
async function runDrifts(mutation: Mutation): Promise<{ drifts: number; same: number; errors: number; wrong: string[] }> {
  const drifts = chooseDrifts(proxy.answers, mutation, SEED);
  const was = verdict(clean);
  const outcome = { drifts: drifts.length, same: 0, errors: 0, wrong: [] as string[] };
  for (const drift of drifts) {
    proxy.drift = drift;
    proxy.applied = 0;
    const report = await run();
    proxy.drift = null;
    const now = verdict(report);
    const lost = was.filter((v) => !now.includes(v) && !v.startsWith('gate '));
    const gained = now.filter((v) => !was.includes(v) && !v.startsWith('gate '));
    if (proxy.applied === 0) outcome.wrong.push(`${drift.label}: the answer was not requested again`);
    else if (report.summary.gate === 'error') outcome.errors += 1;
    else if (lost.length === 0 && gained.length === 0) outcome.same += 1;
    else if (mutation.judged === 'same' || lost.length > 0) outcome.wrong.push(`${drift.label}: -${lost.join(' | ')} +${gained.join(' | ')}`);
  }
  console.log(`drift, ${mutation.name}: ${outcome.drifts} runs: ${outcome.same} the clean verdict, ${outcome.errors} exit 3, ${outcome.drifts - outcome.same - outcome.errors - outcome.wrong.length} stricter, ${outcome.wrong.length} wrong`);
  return outcome;
}

it('every field a mutation exempts is one the clean run read', () => {
  const read = new Set([...proxy.answers].flatMap(([request, answer]) => positions(answer, () => true).map((at) => fieldOf(request, at))));
  expect([REMOVED, NULLED].flatMap((m) => Object.keys(m.exempt ?? {})).filter((f) => !read.has(f))).toEqual([]);
});

describe.each([ANOTHER_TYPE, UNHEARD_WORD, REMOVED, NULLED])('drift: $name', (mutation) => {
  it(mutation.judged === 'same' ? 'the clean verdict or exit 3, never another' : 'no violation of the clean run lost, but by exit 3', async () => {
    const outcome = await runDrifts(mutation);
    expect(outcome.wrong).toEqual([]);
    expect(outcome.drifts).toBeGreaterThanOrEqual(operationsRead / 2);
    expect(outcome.errors).toBeGreaterThan(0);
  }, 600_000);
});
