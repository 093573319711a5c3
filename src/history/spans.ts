// What the history keeps of findings, bounded and incremental (schema 2): a finding's text once
// per variant (`texts`: fingerprint, resource, severity, message), and its presence as a span of
// runs (`spans`: from the run it appeared to the last run it was still there, per instance; a
// span still open says OPEN_RUN, schema 4); policy statuses likewise (`policy_spans`). A run that
// changes nothing writes no span and adds no row but its totals, so recording costs the same at
// run 1 and at run 365, and the file stops growing.
// A span only extends across runs that evaluated its policy; runs that did not are never counted
// as evidence (a finding's presence at run R is read together with its policy's status at R).
import type { HistoryKeep } from '../config/history.js';
import type { Severity } from '../core/model.js';
import { SEVERITIES } from '../core/model.js';
import { InputError } from '../core/problem.js';
import type { HistoryDatabase, Row, SqlValue } from './types.js';
import { EVALUATED_STATUSES, type PriorFinding, type PriorState } from './lifecycle.js';
import { LIFECYCLES, rowReader, STORED_STATUSES } from './rows.js';

/** A finding as one run of the history holds it. */
export interface StoredFinding extends PriorFinding {
  status: 'violation' | 'waived';
  lifecycle: string;
}

/** A finding to record: what a report's tracked finding says, with its lifecycle. */
export interface SpanFinding {
  fingerprint: string;
  policy: string;
  resource: { kind: string; id: string; name: string | null };
  severity: Severity;
  message: string;
  status: 'violation' | 'waived';
  lifecycle: string;
  firstSeen: string;
}

const EVALUATED = EVALUATED_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * The last run of a span still open: its policy's last evaluating run held the finding, and the
 * next one that holds it again leaves the span as it is (schema 4; before it, every run rewrote the
 * last run of every span it held, 10,000 rows and their index entries at 10,000 findings). The
 * largest PostgreSQL INTEGER: past any run, so a span open is present at every later run its
 * policy is read at, and never older than a cutoff.
 */
export const OPEN_RUN = 2_147_483_647;

/** Values an IN list holds at most: within every driver's limit on parameters. */
const CHUNK = 500;

/** `values` in chunks an IN list can hold, each with its list's marks (`?, ?, …`). */
function* inLists(values: readonly SqlValue[]): Generator<{ part: SqlValue[]; marks: string }> {
  // Stryker disable next-line EqualityOperator: an empty last chunk's `IN ()` answers no row
  for (let i = 0; i < values.length; i += CHUNK) {
    // Stryker disable next-line MethodExpression: every row in every chunk is the same rows, read more often
    const part = values.slice(i, i + CHUNK);
    yield { part, marks: part.map(() => '?').join(', ') };
  }
}

/** Rows of `sql` for each chunk of `values`. */
async function chunked(db: HistoryDatabase, values: readonly SqlValue[], sql: (marks: string) => string, before: SqlValue[] = []): Promise<Row[]> {
  const rows: Row[] = [];
  for (const { part, marks } of inLists(values)) rows.push(...(await db.all(sql(marks), [...before, ...part])));
  return rows;
}

/** Per policy, the last run of `instance` (before `before`, when given) that evaluated it without error. */
async function lastEvaluated(db: HistoryDatabase, instance: string, before?: number): Promise<Map<string, number>> {
  const bound = before === undefined ? '' : ' AND last_run < ?';
  const rows = await db.all(`SELECT policy, MAX(last_run) AS last FROM policy_spans WHERE instance = ? AND status IN (${EVALUATED})${bound} GROUP BY policy`, before === undefined ? [instance] : [instance, before]);
  return new Map(rows.map((r) => [String(r.policy), Number(r.last)]));
}

function priorFinding(db: HistoryDatabase, row: Row): PriorFinding {
  // Stryker disable next-line LogicalOperator: the message names the span's id instead, equal to the text's in every history
  const r = rowReader(db, 'texts', row, () => `id ${String(row.text_id ?? row.id)}, fingerprint ${JSON.stringify(row.fingerprint)}`);
  return {
    fingerprint: r.text('fingerprint'),
    policy: r.text('policy'),
    severity: r.oneOf('severity', SEVERITIES),
    resource: { kind: r.text('resource_kind'), id: r.text('resource_id'), name: r.nullableText('resource_name') },
    message: r.text('message'),
    firstSeen: r.text('first_seen'),
  };
}

/** Spans with their texts: the span's `columns` beside every column of its text. */
const spanRows = (columns: string): string =>
  `SELECT ${columns}, t.fingerprint, t.policy, t.resource_kind, t.resource_id, t.resource_name, t.severity, t.message FROM spans s JOIN texts t ON t.id = s.text_id`;

const SPAN_ROWS = spanRows('s.id, s.text_id, s.status, s.lifecycle, s.first_seen, s.first_run, s.last_run');

/**
 * What readSpans reads of the spans present at a policy's last run: SPAN_ROWS less the columns
 * only a run's own listing needs (text_id, lifecycle, first_run). A recording reads every open
 * span so (10,000 at 10,000 findings), each column a JSON value written and parsed.
 */
const PRIOR_SPAN_ROWS = spanRows('s.id, s.status, s.first_seen, s.last_run');

/** What a text row says of a finding: a finding saying the same is the same text. */
type Text = Pick<PriorFinding, 'fingerprint' | 'policy' | 'severity' | 'resource' | 'message'>;

/** A text as one string, the key of a map of texts. */
const textKey = (f: Text) => JSON.stringify([f.fingerprint, f.policy, f.resource.kind, f.resource.id, f.resource.name, f.severity, f.message]);

const rowTextKey = (r: Row): string =>
  textKey({ fingerprint: String(r.fingerprint), policy: String(r.policy), resource: { kind: String(r.resource_kind), id: String(r.resource_id), name: r.resource_name === null ? null : String(r.resource_name) }, severity: String(r.severity) as Severity, message: String(r.message) });

/**
 * Whether a finding says what its open span's text says, without writing either as a key (a run
 * compares every finding with its span): the span was found by the finding's fingerprint.
 */
const sameText = (span: Text, f: Text): boolean =>
  span.policy === f.policy && span.severity === f.severity && span.message === f.message && span.resource.kind === f.resource.kind && span.resource.id === f.resource.id && span.resource.name === f.resource.name;

/** A span the last evaluating run of its policy left open: its text and that run (`seenAt`, where the span ends if the next evaluating run no longer holds it). */
interface OpenSpan {
  id: number;
  text: Text;
  seenAt: number;
}

/**
 * The open spans by status, then fingerprint: a finding looks its span up by the fingerprint
 * string it already has (hashed once a run), where a key made of both was a new string to
 * hash for each of 10,000 findings, twice (6–11 ms on Node 24).
 */
export type OpenSpans = Map<string, Map<string, OpenSpan>>;

/**
 * Every span of `policies` present at its policy's last evaluating run `last` (a span may reach
 * past it, into a later run where the policy had an error), read once for all policies: one
 * query per distinct last run (as a rule one), not one per policy, each answering every span
 * present at that run.
 */
async function spansAtLast(db: HistoryDatabase, instance: string, policies: readonly string[], last: ReadonlyMap<string, number>): Promise<Row[]> {
  const byRun = new Map<number, Set<string>>();
  for (const policy of policies) {
    const run = last.get(policy);
    if (run !== undefined) (byRun.get(run) ?? byRun.set(run, new Set()).get(run)!).add(policy);
  }
  const rows: Row[] = [];
  for (const [run, wanted] of byRun) {
    for (const r of await db.bulk(`${PRIOR_SPAN_ROWS} WHERE s.instance = ? AND s.last_run >= ? AND s.first_run <= ?`, [instance, run, run])) {
      if (wanted.has(String(r.policy))) rows.push(r);
    }
  }
  return rows;
}

/**
 * `rows` (spansAtLast's) as findings, each read as the history must hold it (rows.ts), and the
 * open spans among them, each with its policy's last evaluating run (the last run it was seen in).
 */
function readSpans(db: HistoryDatabase, rows: readonly Row[], last: ReadonlyMap<string, number>): { held: PriorFinding[]; open: OpenSpans } {
  const held: PriorFinding[] = [];
  const open: OpenSpans = new Map();
  for (const r of rows) {
    const finding = priorFinding(db, r);
    held.push(finding);
    if (Number(r.last_run) !== OPEN_RUN) continue;
    const status = String(r.status);
    (open.get(status) ?? open.set(status, new Map()).get(status)!).set(finding.fingerprint, { id: Number(r.id), text: finding, seenAt: last.get(finding.policy)! });
  }
  return { held, open };
}

/**
 * What earlier runs of `instance` say about the policies of this run, and when each of this
 * run's `fingerprints` was first seen: asked for those alone, so the cost follows the run, not
 * every fingerprint the history has kept (4,650 by run 365 of the bench's, +40 % of a recording).
 * With them, the spans this run extends (appendRun), from the same read.
 */
export async function loadPrior(db: HistoryDatabase, instance: string, policies: readonly string[], fingerprints: readonly string[]): Promise<PriorState & { open: OpenSpans }> {
  const last = await lastEvaluated(db, instance);
  const { held, open } = readSpans(db, await spansAtLast(db, instance, policies, last), last);
  const previous = new Map<string, Map<string, PriorFinding>>();
  // When each finding was first seen: for one held at its policy's last evaluating run, its span
  // says (appendRun writes every span of a fingerprint with the first sighting of its earliest).
  // The others (new, reopened) are looked up, from the texts (by fingerprint) to their spans (by
  // text, schema 3): `instance || ''` keeps SQLite, which has no statistics to tell it that one
  // instance is most of the history, from scanning every span of the instance instead.
  const firstSeen = new Map<string, string>();
  for (const f of held) {
    (previous.get(f.policy) ?? previous.set(f.policy, new Map()).get(f.policy)!).set(f.fingerprint, f);
    firstSeen.set(f.fingerprint, f.firstSeen);
  }
  const seen = (marks: string) =>
    `SELECT t.fingerprint, MIN(s.first_seen) AS first_seen FROM spans s JOIN texts t ON t.id = s.text_id WHERE s.instance || '' = ? AND t.fingerprint IN (${marks}) GROUP BY t.fingerprint`;
  const unseen = fingerprints.filter((fingerprint) => !firstSeen.has(fingerprint));
  for (const r of await chunked(db, unseen, seen, [instance])) firstSeen.set(String(r.fingerprint), String(r.first_seen));
  return { previous, firstSeen, open };
}

/**
 * Records run `run` of `instance`: each policy's status and each tracked finding, leaving open
 * the spans the previous evaluating run left open that it holds again (`open`, from loadPrior;
 * read here when not given), closing the others and opening new ones for what changed. Called
 * inside the recording's transaction.
 */
export async function appendRun(db: HistoryDatabase, run: number, instance: string, policies: readonly { id: string; status: string }[], findings: readonly SpanFinding[], given?: OpenSpans): Promise<void> {
  let open = given;
  if (!open) {
    const last = await lastEvaluated(db, instance, run);
    ({ open } = readSpans(db, await spansAtLast(db, instance, [...last.keys()], last), last));
  }
  // Policy statuses: the previous run of the instance left a span per policy it ran.
  const [prev] = await db.all('SELECT MAX(id) AS id FROM runs WHERE instance = ? AND id < ?', [instance, run]);
  const openPolicies = new Map<string, { id: number; status: string }>();
  // Stryker disable next-line all: MAX(id) always answers one row, and no run id is below 1
  if (prev?.id !== null && prev?.id !== undefined) {
    for (const r of await db.all('SELECT id, policy, status FROM policy_spans WHERE instance = ? AND last_run = ?', [instance, prev.id])) openPolicies.set(String(r.policy), { id: Number(r.id), status: String(r.status) });
  }
  for (const p of policies) {
    const span = openPolicies.get(p.id);
    if (span?.status === p.status) await db.run('UPDATE policy_spans SET last_run = ? WHERE id = ?', [run, span.id]);
    else await db.run('INSERT INTO policy_spans (instance, policy, status, first_run, last_run) VALUES (?, ?, ?, ?, ?)', [instance, p.id, p.status, run, run]);
  }
  // A finding whose open span says the same text leaves it open; the others (new, reopened,
  // changed) open spans of their own, their texts looked up by fingerprint, a row per variant,
  // found again by what it says. Where its policy was not evaluated (an error), a finding still
  // reported ends its span at this run, and one not reported keeps its span open: only an
  // evaluating run says a finding is gone, and then its span ends at the last run that held it.
  const evaluated = new Set(policies.filter((p) => EVALUATED_STATUSES.includes(p.status)).map((p) => p.id));
  const ending = new Map<number, number[]>();
  const end = (id: number, at: number) => (ending.get(at) ?? ending.set(at, []).get(at)!).push(id);
  const held = new Set<OpenSpan>();
  const rest: { finding: SpanFinding; key: string }[] = [];
  for (const f of findings) {
    const span = open.get(f.status)?.get(f.fingerprint);
    if (span && sameText(span.text, f)) {
      held.add(span);
      if (!evaluated.has(f.policy)) end(span.id, run);
    } else rest.push({ finding: f, key: textKey(f) });
  }
  for (const spans of open.values()) for (const span of spans.values()) if (!held.has(span) && evaluated.has(span.text.policy)) end(span.id, span.seenAt);
  const texts = new Map<string, number>();
  const unmatched = [...new Set(rest.map((r) => r.finding.fingerprint))];
  for (const r of await chunked(db, unmatched, (marks) => `SELECT * FROM texts WHERE fingerprint IN (${marks})`)) texts.set(rowTextKey(r), Number(r.id));
  for (const { finding: f, key } of rest) {
    let textId = texts.get(key);
    if (textId === undefined) {
      const [row] = await db.all('INSERT INTO texts (fingerprint, policy, resource_kind, resource_id, resource_name, severity, message) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id', [
        f.fingerprint, f.policy, f.resource.kind, f.resource.id, f.resource.name, f.severity, f.message,
      ]);
      textId = Number(row!.id);
      texts.set(key, textId);
    }
    const lastRun = evaluated.has(f.policy) ? OPEN_RUN : run;
    await db.run('INSERT INTO spans (instance, text_id, status, lifecycle, first_seen, first_run, last_run) VALUES (?, ?, ?, ?, ?, ?, ?)', [instance, textId, f.status, f.lifecycle, f.firstSeen, run, lastRun]);
  }
  // Ended in chunks, not a statement per span.
  for (const [at, ids] of ending) for (const { part, marks } of inLists(ids)) await db.run(`UPDATE spans SET last_run = ? WHERE id IN (${marks})`, [at, ...part]);
}

/** One run's findings and the statuses of its policies; null when the history has no such run. */
export async function spansAt(db: HistoryDatabase, run: number, instance: string): Promise<{ findings: StoredFinding[]; policies: Map<string, string> }> {
  const policies = new Map(
    (await db.all('SELECT policy, status FROM policy_spans WHERE instance = ? AND first_run <= ? AND last_run >= ?', [instance, run, run])).map((row) => {
      const r = rowReader(db, 'policy_spans', row, () => `of run ${run}, policy ${JSON.stringify(row.policy)}`);
      return [r.text('policy'), r.text('status')];
    }),
  );
  const rows = await db.all(`${SPAN_ROWS} WHERE s.instance = ? AND s.first_run <= ? AND s.last_run >= ? ORDER BY s.id`, [instance, run, run]);
  const findings = rows
    // Stryker disable next-line StringLiteral: any text that is not an evaluated status reads the same
    .filter((row) => EVALUATED_STATUSES.includes(policies.get(String(row.policy)) ?? ''))
    .map((row) => {
      const r = rowReader(db, 'spans', row, () => `id ${String(row.id)}, fingerprint ${JSON.stringify(row.fingerprint)}`);
      const lifecycle = r.count('first_run') === run ? r.oneOf('lifecycle', LIFECYCLES) : 'open';
      return { ...priorFinding(db, row), status: r.oneOf('status', STORED_STATUSES), lifecycle };
    });
  return { findings, policies };
}

/** Fingerprints seen in runs of `instance` before run `before`. */
export async function seenBefore(db: HistoryDatabase, instance: string, before: number): Promise<Set<string>> {
  const rows = await db.all('SELECT DISTINCT t.fingerprint FROM spans s JOIN texts t ON t.id = s.text_id WHERE s.instance = ? AND s.first_run < ?', [instance, before]);
  return new Set(rows.map((r) => String(r.fingerprint)));
}

/**
 * Folds the runs of `instance` older than `keep` into their totals: their spans and texts go,
 * their `runs` row (counts, verdict, trend) stays, marked folded. A span still open reaches into
 * the kept runs and stays whole, unless its policy was last evaluated before them.
 */
export async function foldOldRuns(db: HistoryDatabase, instance: string, keep: HistoryKeep, now: Date): Promise<number> {
  const [row] =
    'runs' in keep
      ? await db.all('SELECT MIN(id) AS id FROM (SELECT id FROM runs WHERE instance = ? ORDER BY id DESC LIMIT ?) kept', [instance, keep.runs])
      : await db.all('SELECT MIN(id) AS id FROM runs WHERE instance = ? AND started_at >= ?', [instance, new Date(now.getTime() - keep.days * 86_400_000).toISOString()]);
  // Stryker disable next-line all: MIN(id) always answers one row, and no run id is below 1
  const cutoff = row?.id === null || row?.id === undefined ? null : Number(row.id);
  // Stryker disable next-line ConditionalExpression: a null cutoff folds nothing below it either
  if (cutoff === null) return 0;
  const [old] = await db.all('SELECT COUNT(*) AS n FROM runs WHERE instance = ? AND id < ? AND folded = 0', [instance, cutoff]);
  // Stryker disable next-line all: COUNT(*) always answers one row; nothing to fold changes nothing
  if (Number(old?.n ?? 0) === 0) return 0;
  await db.run('DELETE FROM spans WHERE instance = ? AND last_run < ?', [instance, cutoff]);
  // A span still open ends at its policy's last evaluating run: folded with it when that run is.
  const stale = [...(await lastEvaluated(db, instance))].filter(([, last]) => last < cutoff).map(([policy]) => policy);
  for (const { part, marks } of inLists(stale)) {
    await db.run(`DELETE FROM spans WHERE instance = ? AND last_run = ${OPEN_RUN} AND text_id IN (SELECT id FROM texts WHERE policy IN (${marks}))`, [instance, ...part]);
  }
  await db.run('DELETE FROM policy_spans WHERE instance = ? AND last_run < ?', [instance, cutoff]);
  await db.run('DELETE FROM texts WHERE id NOT IN (SELECT text_id FROM spans)');
  await db.run('UPDATE runs SET folded = 1 WHERE instance = ? AND id < ? AND folded = 0', [instance, cutoff]);
  return Number(old!.n);
}

/** A folded run has only its totals: asking for its findings is bad input, said as such. */
export function foldedRun(db: HistoryDatabase, run: number): InputError {
  return new InputError([{ file: db.shown, line: 0, column: 0, message: `run ${run} was folded into its totals (history.keep): its findings are no longer kept` }]);
}

/** Schema 1 → 2: every run's policies and findings, oldest first, replayed into spans. */
export async function spansFromV1(db: HistoryDatabase): Promise<void> {
  for (const run of await db.all('SELECT id, instance FROM runs ORDER BY id')) {
    const id = Number(run.id);
    const policies = (await db.all('SELECT policy, status FROM run_policies WHERE run_id = ?', [id])).map((p) => ({ id: String(p.policy), status: String(p.status) }));
    const findings = (await db.all('SELECT * FROM findings WHERE run_id = ?', [id])).map((f) => ({
      fingerprint: String(f.fingerprint),
      policy: String(f.policy),
      resource: { kind: String(f.resource_kind), id: String(f.resource_id), name: f.resource_name === null ? null : String(f.resource_name) },
      severity: String(f.severity) as Severity,
      message: String(f.message),
      status: String(f.status) as 'violation' | 'waived',
      lifecycle: String(f.lifecycle),
      firstSeen: String(f.first_seen),
    }));
    await appendRun(db, id, String(run.instance), policies, findings);
  }
}
