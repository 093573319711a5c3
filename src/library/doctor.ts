// `steward doctor`: before a first real run, one cheap request per grant the selected policies
// need (the base URL answers, the token is accepted, the schedule filter is allowed, the
// misconfigured list and the Workflow API grant are held, every scope id exists, each listing
// and each read of one resource a policy makes answers: doctor-reads.ts), and which endpoints
// each policy reads. Nothing is evaluated; a check that is not ok is exit 3.
import { withConnection } from './connect.js';
import { type CheckOptions, prepareRun } from './prepare.js';
import { grantsHeld, holderOf } from './grant-check.js';
import { tokenExpiry } from './token-expiry.js';
import { DEVELOPER_TOKEN_HEADER } from '../api/assumptions.js';
import { isApiError } from '../api/errors.js';
import type { InstanceApi, OperationId } from '../api/types.js';
import type { Config } from '../config/types.js';
import type { CompiledPolicy } from '../policy/compile.js';
import { readsField } from '../policy/reads.js';
import { firstPage } from '../resources/common.js';
import { RESOURCE_KINDS, scopeEntries } from '../resources/index.js';
import { type DoctorCheck, listingChecks, type PolicyReads, partReads, probe, readFirst, resourceReadChecks } from './doctor-reads.js';

export type { DoctorCheck, DoctorStatus } from './doctor-reads.js';

export interface DoctorReport {
  instance: string;
  ok: boolean;
  checks: DoctorCheck[];
  /** The reads each selected policy makes (operation ids of the client). */
  policies: PolicyReads[];
  /**
   * Per selected kind, the grant its listing needs to be the whole instance's, whether a probe
   * above checked it (a listing answers either way: without the grant it holds only the token
   * user's objects, which no listing says), and whether the token user's role holds it (`held`:
   * null when that cannot be told: no `instance.tokenId`, or a grant the authorities list lacks).
   */
  grants: { kind: string; grant: string; probed: boolean; held: boolean | null }[];
}

/** Scope ids checked per kind before the rest are summed up as "and N more". */
export const DOCTOR_IDS_SHOWN = 5;

/** The reads a policy makes: its kind's collection, plus each part its expressions read. */
export function operationsOf(policy: CompiledPolicy, workflowUrl: string | null): OperationId[] {
  const kind = RESOURCE_KINDS[policy.def.resource];
  if (!kind) return [];
  const ops = new Set<OperationId>(kind.operations);
  for (const part of Object.values(kind.parts)) {
    if (!readsField(policy.reads.select, part.name) && !readsField(policy.reads.judge, part.name)) continue;
    for (const op of partReads(part)) ops.add(op);
  }
  if (ops.has('listWorkflows') && !workflowUrl) {
    ops.delete('listWorkflows');
    ops.add('listWorkflowModels');
  }
  return [...ops];
}

function connectionChecks(api: InstanceApi, config: Config): Promise<DoctorCheck> {
  const header = config.instance.tokenHeader ?? DEVELOPER_TOKEN_HEADER;
  return probe(
    'token',
    'base URL answers and the token is accepted',
    'GET the token user’s own report schedules (filter=USER, limit 1)',
    () => firstPage(api.listReportSchedules({ filter: 'USER', pageSize: 1 })),
    (status) =>
      status === 401
        ? `the token was refused: set STEWARD_TOKEN to a developer token of this instance (sent in ${header}; instance.tokenHeader changes the header)`
        : 'check instance.baseUrl / STEWARD_BASE_URL: the instance did not answer as expected',
  );
}

/** The probes the kinds declare whose operations a selected policy needs, in registry order; a failed one names the policies it leaves uncovered. */
function kindProbes(api: InstanceApi, config: Config, policies: readonly PolicyReads[]): Promise<DoctorCheck>[] {
  const ctx = { scope: config.scope, workflowUrl: config.instance.workflowUrl };
  const needing = (ops: OperationId[]) => policies.filter((p) => p.operations.some((op) => ops.includes(op))).map((p) => p.id);
  return Object.values(RESOURCE_KINDS)
    .flatMap((kind) => kind.probes ?? [])
    .filter((p) => needing(p.when).length > 0)
    .map(async (p) => {
      const { check, asked, run, fix } = p.plan(ctx);
      const result = await probe(p.id, check, asked, () => run(api), fix);
      return result.status === 'ok' ? result : { ...result, uncovered: needing(p.when) };
    });
}

/** `scope.<key>: all`: the first page of the kind's listing can be read. */
function discoveryCheck(api: InstanceApi, key: string, listing: OperationId): Promise<DoctorCheck> {
  return probe(`discover.${key}`, `scope.${key}: all can be listed`, `${listing} (first page)`, () => readFirst(api, listing), () => `give the token's user access to list them, or name the ids in scope.${key}`);
}

/** A warning per scope key that names nothing while selected policies read its kind: they would check nothing. */
function emptyScopeChecks(config: Config, policies: readonly PolicyReads[]): DoctorCheck[] {
  const out: DoctorCheck[] = [];
  for (const kind of Object.values(RESOURCE_KINDS)) {
    const input = kind.inputs.scope;
    if (!input || input.emptyMeansAll || kind.inputs.alsoFrom || kind.inputs.manifests) continue;
    const reading = policies.filter((p) => p.resource === kind.name).map((p) => p.id);
    if (reading.length === 0 || config.scope.discover[input.key] || scopeEntries(config.scope, input).length > 0) continue;
    out.push({
      id: `empty.${input.key}`,
      check: `scope.${input.key} names something to check`,
      status: 'warn',
      detail: `scope.${input.key} is empty: ${reading.length} selected polic${reading.length === 1 ? 'y checks' : 'ies check'} nothing (${reading.join(', ')})`,
      fix: `set scope.${input.key}: all (or name ids), or leave those policies out with --only/--skip`,
    });
  }
  return out;
}

/**
 * One row per kind with a scope input: every entry read once (the kind's `exists` read); and per
 * scope key the entries that could not be read (`x`, or `x:path` for a file), as a resource's id.
 */
async function scopeChecks(api: InstanceApi, config: Config): Promise<{ checks: DoctorCheck[]; unreadable: Map<string, Set<string>> }> {
  const out: DoctorCheck[] = [];
  const unreadable = new Map<string, Set<string>>();
  for (const kind of Object.values(RESOURCE_KINDS)) {
    const input = kind.inputs.scope;
    if (!input) continue;
    if (config.scope.discover[input.key] && input.discovery) out.push(await discoveryCheck(api, input.key, input.discovery));
    const entries = scopeEntries(config.scope, input);
    if (entries.length === 0) continue;
    const id = `scope.${input.key}`;
    const check = `every ${input.description} in scope exists`;
    const read = async ([x, p]: [string, string?]) => input.exists(api, x, p).then(() => null, (err: unknown) => ({ x: p === undefined ? x : `${x}:${p}`, err }));
    const failures = (await Promise.all(entries.map(read))).filter((f) => f !== null);
    unreadable.set(input.key, new Set(failures.map((f) => f.x)));
    if (failures.length === 0) {
      out.push({ id, check, status: 'ok', detail: `${entries.length} read`, fix: '' });
      continue;
    }
    const shown = failures.slice(0, DOCTOR_IDS_SHOWN).map((f) => f.x);
    const more = failures.length > shown.length ? ` and ${failures.length - shown.length} more` : '';
    const missing = failures.every((f) => isApiError(f.err) && (f.err.status === 404 || f.err.status === 403));
    const first = failures[0].err instanceof Error ? failures[0].err.message : String(failures[0].err);
    out.push({
      id,
      check,
      status: missing ? 'missing' : 'refused',
      detail: `${failures.length} of ${entries.length} could not be read: ${shown.join(', ')}${more} (first: ${first})`,
      fix: `remove or correct these entries in ${id} of steward.yaml, or give the token's user access to them`,
    });
  }
  return { checks: out, unreadable };
}

/** Runs every check the selected policies make relevant; `ok` only when all are. */
export async function doctor(options: CheckOptions = {}): Promise<DoctorReport> {
  const prepared = await prepareRun(options);
  const { config, selected } = prepared;
  const policies = selected.map((p) => ({ id: p.id, resource: p.def.resource, operations: operationsOf(p, config.instance.workflowUrl) }));
  // What to probe follows from the reads the selected policies make.
  return withConnection(options, prepared, async (connection) => {
    const api = connection.api;
    const first = await connectionChecks(api, config);
    const checks: DoctorCheck[] = [first];
    if (first.status === 'ok') {
      checks.push(...(await Promise.all(kindProbes(api, config, policies))), ...(await Promise.all(listingChecks(api, policies))));
      const scope = await scopeChecks(api, config);
      checks.push(...scope.checks);
      // After the scope's reads: a first resource the scope names was read there, and the client keeps its answers.
      checks.push(...(await resourceReadChecks(api, prepared, policies, scope.unreadable, checks)));
      checks.push(...emptyScopeChecks(config, policies));
      if (config.instance.tokenId !== null) {
        const token = await tokenExpiry(api, config, new Date());
        const check = `the token in use (access token ${config.instance.tokenId}) does not expire within ${config.instance.tokenWarningDays} days`;
        checks.push(token ? { id: 'tokenExpiry', check, status: 'warn', detail: token.note, fix: 'issue a new token and update STEWARD_TOKEN (and instance.tokenId) before it expires' } : { id: 'tokenExpiry', check, status: 'ok', detail: 'GET the access-token list: not within the warning window', fix: '' });
      }
    }
    const probed = new Set(Object.values(RESOURCE_KINDS).filter((k) => (k.probes ?? []).some((p) => p.verifiesGrant)).map((k) => k.name));
    const needed = [...new Set(policies.map((p) => p.resource))].filter((k) => RESOURCE_KINDS[k]?.completeWith).map((k) => ({ kind: k, grant: RESOURCE_KINDS[k].completeWith! }));
    let holding: Awaited<ReturnType<typeof grantsHeld>> | null = null;
    const tokenId = config.instance.tokenId;
    if (first.status === 'ok' && tokenId !== null && needed.length > 0) {
      try {
        holding = await grantsHeld(api, tokenId, needed.map((n) => n.grant));
        checks.push(grantsCheck(holding, needed, policies));
      } catch (err) {
        const detail = err instanceof Error ? err.message : String(err);
        checks.push({ id: 'grantsHeld', check: GRANTS_CHECK, status: 'refused', detail, fix: 'the access-token list, the user search and the authorities list must answer as documented: see the detail' });
      }
    }
    const grants = needed.map((n) => ({ ...n, probed: probed.has(n.kind), held: typeof holding === 'object' && holding !== null ? (holding.held.get(n.grant) ?? null) : null }));
    return {
      instance: connection.instance,
      ok: checks.every((c) => c.status === 'ok' || c.status === 'warn'),
      checks,
      policies,
      grants,
    };
  });
}

/**
 * The check that the token user's role holds each grant a selected kind's complete listing needs:
 * ok, `missing` naming each grant not held (its kinds' policies would judge a partial listing
 * and pass what they never saw), or `warn` when it cannot be told; `refused` (in doctor) when
 * a read behind it failed or answered what steward cannot trust.
 */
const GRANTS_CHECK = "the token's user holds the grants complete listings need";

function grantsCheck(holding: Awaited<ReturnType<typeof grantsHeld>>, needed: { kind: string; grant: string }[], policies: readonly PolicyReads[]): DoctorCheck {
  const check = GRANTS_CHECK;
  if (typeof holding === 'string') return { id: 'grantsHeld', check, status: 'warn', detail: `cannot be told: ${holding}`, fix: 'set instance.tokenId to the access-token id of the token in use, held by a user the user search lists' };
  const who = holderOf(holding);
  const lacking = needed.filter((n) => holding.held.get(n.grant) === false);
  const unknown = [...new Set(needed.filter((n) => holding.held.get(n.grant) === null).map((n) => n.grant))];
  const unknownNote = unknown.length > 0 ? `; not in the authorities list, so not told: ${unknown.join(', ')}` : '';
  if (lacking.length === 0) return { id: 'grantsHeld', check, status: 'ok', detail: `${who} holds ${[...new Set(needed.map((n) => n.grant))].filter((g) => !unknown.includes(g)).join(', ') || 'nothing asked'}${unknownNote}`, fix: '' };
  // Not `uncovered`: these policies do not end in error, they judge a partial listing.
  const partial = (kind: string) => policies.filter((p) => p.resource === kind).length;
  return {
    id: 'grantsHeld',
    check,
    status: 'missing',
    detail: `${who} lacks ${lacking.map((n) => `${n.grant} (${n.kind}: ${partial(n.kind)} polic${partial(n.kind) === 1 ? 'y' : 'ies'} would judge only what the user can see)`).join(', ')}${unknownNote}`,
    fix: "give the token user's role those grants (Admin › Roles), or use a token of a user who holds them",
  };
}

/** The text table: one row per check, then the endpoints per policy. */
export function renderDoctorText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((c) => c.check.length), 5);
  const lines = [`steward doctor: ${report.instance}`, '', `${'CHECK'.padEnd(width)}  STATUS   DETAIL`];
  for (const c of report.checks) {
    lines.push(`${c.check.padEnd(width)}  ${c.status.padEnd(7)}  ${c.detail}`);
    if (c.fix) lines.push(`${''.padEnd(width)}  ${''.padEnd(7)}  → ${c.fix}`);
    if (c.uncovered?.length) lines.push(`${''.padEnd(width)}  ${''.padEnd(7)}  without it, in error (exit 3): ${c.uncovered.join(', ')}`);
  }
  if (report.grants.length > 0) {
    lines.push('', 'Grants a complete listing needs (without one, a listing holds only the token user\'s objects):');
    const asked = report.checks.some((c) => c.id === 'grantsHeld');
    const unknown = asked ? 'the token user’s role could not be checked for it (above)' : 'set instance.tokenId to check the token user’s role';
    const told = (g: DoctorReport['grants'][number]) =>
      g.held === true ? ' (held by the token user’s role)' : g.held === false ? ' (NOT held by the token user’s role: the listing is partial)' : g.probed ? ' (checked above)' : ` (not told: the listing answers either way; ${unknown}, or accept a partial listing)`;
    for (const g of report.grants) lines.push(`  ${g.kind}: ${g.grant}${told(g)}`);
  }
  lines.push('', 'Endpoints each selected policy reads:');
  for (const p of report.policies) lines.push(`  ${p.id} (${p.resource}): ${p.operations.join(', ') || 'none (manifests only)'}`);
  const bad = report.checks.filter((c) => c.status !== 'ok' && c.status !== 'warn').length;
  lines.push('', report.ok ? 'all checks ok' : `${bad} check${bad === 1 ? '' : 's'} not ok`);
  return `${lines.join('\n')}\n`;
}
