// What `steward doctor` reads beyond the kinds' own probes: each listing a selected policy reads
// (its first page), and each read of one resource a selected policy makes (for the first
// resource its kind collects), so a grant the token lacks shows here and not as `check`'s exit 3.
import { isApiError } from '../api/errors.js';
import { OPERATIONS } from '../api/operations.js';
import type { InstanceApi, OperationId } from '../api/types.js';
import { createRunMemo } from '../engine/memo.js';
import { firstPageOrWhole, isPages } from '../resources/common.js';
import { RESOURCE_KINDS } from '../resources/index.js';
import type { CollectedResource, DocumentPart, ResourceKind } from '../resources/types.js';
import type { PreparedRun } from './prepare.js';

/**
 * ok; missing: a grant or an id the token's user lacks (403/404); refused: anything else; warn:
 * worth acting on, but no reason the next run would fail (the token expiring soon).
 */
export type DoctorStatus = 'ok' | 'missing' | 'refused' | 'warn';

export interface DoctorCheck {
  id: string;
  check: string;
  status: DoctorStatus;
  /** What was asked and what came back. */
  detail: string;
  /** What to do when it is not ok (empty when ok). */
  fix: string;
  /** The selected policies that lose coverage when it is not ok (they end in error, exit 3); absent when ok. */
  uncovered?: string[];
}

/** A selected policy, its kind, and the reads it makes (operation ids of the client). */
export interface PolicyReads {
  id: string;
  resource: string;
  operations: OperationId[];
}

/** What reading a part requests: its own operation and those behind it. */
export const partReads = (part: DocumentPart): OperationId[] => [part.operation, ...(part.alsoReads ?? [])];

/** Runs one probe: ok, or the status its error means (403/404 missing; 401, 400, network refused). */
export async function probe(id: string, check: string, asked: string, run: () => Promise<unknown>, fixFor: (status?: number) => string): Promise<DoctorCheck> {
  try {
    await run();
    return { id, check, status: 'ok', detail: `${asked}: answered`, fix: '' };
  } catch (err) {
    return failedCheck(id, check, err, fixFor);
  }
}

/** A check whose read failed with `err`: 403/404 missing, anything else refused; `before` leads its detail. */
function failedCheck(id: string, check: string, err: unknown, fixFor: (status?: number) => string, before = ''): DoctorCheck {
  const status = isApiError(err) ? err.status : undefined;
  const missing = status === 403 || status === 404;
  const detail = `${before}${err instanceof Error ? err.message : String(err)}`;
  return { id, check, status: missing ? 'missing' : 'refused', detail, fix: fixFor(status) };
}

/** An operation that takes no argument, read once: a listing's first page, or the whole answer. */
export const readFirst = (api: InstanceApi, op: OperationId): Promise<void> => firstPageOrWhole((api[op] as () => unknown)());

/** The operations some kind's own probe reads (doctor.ts runs those). */
const probed = (): Set<OperationId> => new Set(Object.values(RESOURCE_KINDS).flatMap((k) => (k.probes ?? []).flatMap((p) => p.when)));

/**
 * What to do about a read not ok: refused by the instance (403, 404), the grant of the kind
 * reading it, when it names one; any other answer is one `check` cannot trust either.
 */
const readFix = (grant: string | undefined) => (status?: number) =>
  status === 403 || status === 404
    ? `give the token's user access to it${grant ? ` (${grant})` : ''}, or leave the policies reading it out with --only`
    : 'the answer is not one steward can trust (see the detail): check would end the same policies in error';

/**
 * Each read without an argument that a selected policy makes and no kind's probe covers (the
 * listings content kinds' `owner` parts read: datasets, queues, data files, file sets, the card
 * search and admin summary), read once; a refused one names the policies it leaves in error.
 */
export function listingChecks(api: InstanceApi, policies: readonly PolicyReads[]): Promise<DoctorCheck>[] {
  const kinds = Object.values(RESOURCE_KINDS);
  const covered = probed();
  const unprobed = [...new Set(policies.flatMap((p) => p.operations))].filter((op) => !covered.has(op) && OPERATIONS[op].access === 'read' && OPERATIONS[op].args.length === 0);
  return unprobed.map(async (op) => {
    // The grant named is that of the kind reading it (a content kind's, for its owner listing).
    const grant = kinds.find((k) => k.completeWith && [...k.operations, ...Object.values(k.parts).flatMap(partReads)].includes(op))?.completeWith;
    const result = await probe(`read.${op}`, `${op} can be read`, `${op} (first page)`, () => readFirst(api, op), readFix(grant));
    return result.status === 'ok' ? result : { ...result, uncovered: policies.filter((p) => p.operations.includes(op)).map((p) => p.id) };
  });
}

/**
 * `api` with every listing cut to its first page: what finds the first resource a kind collects
 * costs a page of each listing behind it, not the whole instance.
 */
function firstPagesOnly(api: InstanceApi): InstanceApi {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const answer = (value as (...a: unknown[]) => unknown).apply(target, args);
        return isPages(answer) ? firstPageOf(answer) : answer;
      };
    },
  });
}

async function* firstPageOf<T>(pages: AsyncIterable<T[]>): AsyncGenerator<T[]> {
  for await (const page of pages) {
    yield page;
    return;
  }
}

/**
 * The first resource `kind` collects that can be read (`check`'s first to judge): not one whose
 * own read failed, nor one the scope names that the scope's check found missing (`unreadable`:
 * its failure is told there, not again as a grant). Null when it collects none.
 */
async function firstResource(kind: ResourceKind, api: InstanceApi, prepared: PreparedRun, unreadable: ReadonlySet<string>): Promise<CollectedResource | null> {
  const { config, declared, cwd } = prepared;
  const mine = declared.get(kind.name);
  const ctx = { api: firstPagesOnly(api), scope: config.scope, manifestFiles: config.manifestFiles, displayRoot: cwd, once: createRunMemo().once, ...(mine ? { declared: mine } : {}) };
  for await (const got of kind.collect(ctx)) {
    for (const r of Array.isArray(got) ? (got as CollectedResource[]) : [got as CollectedResource]) if (!r.loadError && !unreadable.has(r.id)) return r;
  }
  return null;
}

/**
 * Each read of one resource a selected policy makes that no kind's probe covers (an access list,
 * a permission list, a certification, row-level security), made once for the first resource its
 * kind collects, through the part a selected policy reads that asks the least beside it (its
 * own read alone where it declares one): the same request `check` makes. A part the listing
 * already carried needs none. A kind that collects nothing has nothing to read (ok); one whose
 * collection fails leaves each read untried (not ok, with the listing's error). `unreadable`:
 * per scope key, the entries the scope's check could not read; `earlier`: the checks made before.
 */
export async function resourceReadChecks(
  api: InstanceApi,
  prepared: PreparedRun,
  policies: readonly PolicyReads[],
  unreadable: ReadonlyMap<string, ReadonlySet<string>>,
  earlier: readonly DoctorCheck[],
): Promise<DoctorCheck[]> {
  const covered = probed();
  const perKind = Object.values(RESOURCE_KINDS).map(async (kind): Promise<DoctorCheck[]> => {
    const mine = policies.filter((p) => p.resource === kind.name);
    const reads = new Set(mine.flatMap((p) => p.operations));
    const byOperation = new Map<OperationId, DocumentPart>();
    // The parts whose reads a selected policy makes, fewest reads first: each operation through the cheapest.
    const parts = Object.values(kind.parts).filter((part) => partReads(part).every((op) => reads.has(op))).sort((a, b) => partReads(a).length - partReads(b).length);
    for (const part of parts) {
      const op = part.operation;
      if (OPERATIONS[op].args.length > 0 && !covered.has(op) && !byOperation.has(op)) byOperation.set(op, part);
    }
    if (byOperation.size === 0) return [];
    const noun = kind.inputs.scope?.description ?? kind.name;
    const named = (op: OperationId) => ({ id: `read.${kind.name}.${op}`, check: `${op} can be read for one ${noun}` });
    const uncovered = (op: OperationId) => mine.filter((p) => p.operations.includes(op)).map((p) => p.id);
    let sample: CollectedResource | null;
    try {
      sample = await firstResource(kind, api, prepared, unreadable.get(kind.inputs.scope?.key ?? '') ?? new Set());
    } catch (err) {
      // A read behind the kind failed, so nothing was tried: not ok, unless a check before says
      // so for every policy it would name (the schedule filter or the Workflow API grant refused).
      const told = new Set(earlier.flatMap((c) => c.uncovered ?? []));
      return [...byOperation.keys()]
        .filter((op) => uncovered(op).some((id) => !told.has(id)))
        .map((op) => ({ ...failedCheck(named(op).id, named(op).check, err, readFix(kind.completeWith), `no ${noun} could be collected to read it for: `), uncovered: uncovered(op) }));
    }
    const once = createRunMemo().once;
    return Promise.all(
      [...byOperation].map(async ([op, part]): Promise<DoctorCheck> => {
        const { id, check } = named(op);
        if (sample === null) return { id, check, status: 'ok', detail: `no ${noun} in scope to read it for`, fix: '' };
        const of = `${noun} ${sample.id}`;
        if (part.loaded?.(sample, once)) return { id, check, status: 'ok', detail: `${op} for ${of}: carried by its listing, no read`, fix: '' };
        const resource = sample;
        const read = () => (part.probe ? part.probe(api, resource) : part.load(api, resource, once));
        const result = await probe(id, check, `${op} for ${of} (its ${part.name})`, read, readFix(kind.completeWith));
        return result.status === 'ok' ? result : { ...result, uncovered: uncovered(op) };
      }),
    );
  });
  return (await Promise.all(perKind)).flat();
}
