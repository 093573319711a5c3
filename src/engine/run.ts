// One evaluation run (DESIGN §1, §5): collect each needed kind once, load document parts
// lazily (phase 1: parts the selection reads; phase 2: parts only the judgement reads, for
// resources with a selected item), evaluate, and turn outcomes into raw findings. Progress
// per kind is reported through a callback (engine/progress.ts), never written anywhere.
import { type RunWideCause, runWideCause } from '../api/run-wide.js';
import type { InstanceApi } from '../api/types.js';
import { InputError } from '../core/problem.js';
import type { CompiledPolicy } from '../policy/compile.js';
import { DEFAULT_ENFORCEMENT, type Finding, type PolicyResult } from '../core/model.js';
import { scopeEntries } from '../resources/discovery.js';
import { collectAll } from '../resources/common.js';
import type { CollectContext, CollectedResource, ManifestFiles, ResourceKind, Scope } from '../resources/types.js';
import { errorFinding, errorText, orderBySeverity, orderFindings } from './findings.js';
import { type Inspect, type JudgeContext, judgedOn, judgeRow, partsRead, type PolicyPlan, type ResourceVerdict } from './judge.js';
import { Column } from './column.js';
import { createPartMemo, createRunMemo, type RunMemoState } from './memo.js';
import { attachOwners } from './owners.js';
import { eachPooled } from './pool.js';
import { kindProgress, type ProgressEvent } from './progress.js';

export type { ProgressEvent } from './progress.js';

/** Resources evaluated at once when no concurrency is given (the client limits HTTP anyway). */
export const ENGINE_CONCURRENCY_DEFAULT = 8;

export interface RunOptions {
  policies: CompiledPolicy[];
  api: InstanceApi;
  kinds: Record<string, ResourceKind>;
  scope: Scope;
  manifestFiles: ManifestFiles;
  /** Declared kinds' resources already read (library/prepare.ts); others are collected here. */
  declared?: Map<string, CollectedResource[]>;
  displayRoot: string;
  now: Date;
  concurrency?: number;
  /** Per kind, resources read of resources to read (see ProgressEvent). */
  onProgress?: (event: ProgressEvent) => void;
  /** `steward explain`: hands over one resource's document, every part either expression reads loaded. */
  inspect?: Inspect;
  /** The run's memo, when the caller reads through it too (check's grant check shares the user directory). */
  memo?: RunMemoState;
}

export interface RunResult {
  results: PolicyResult[];
  /** Raw findings, before waivers and baseline. */
  findings: Finding[];
  /** Resources collected (all kinds). */
  resources: number;
  /** Selected resources/items judged (all policies). */
  checks: number;
  /** Why a policy was `skipped` (it checked nothing because its kind's scope names nothing). */
  warnings: string[];
  /** Resources collected per kind (the kinds the run read). */
  collected: Record<string, number>;
  /** Resources per kind that at least one policy judged (selected, or found something on). */
  evaluated: Record<string, number>;
  /** The run-wide failures that stopped the run's requests (a refused token, an unreachable host, the deadline), once each, in the order met. */
  stoppedBy: RunWideCause[];
}

/**
 * A kind's resources by id, and each one's verdict per policy: resource i's verdict of the kind's
 * policy p is `verdicts.get(i * policies + p)`. One flat column: an array per resource cost ~250
 * bytes each (300,000 schedules: 70 MB).
 */
interface Judged {
  ids: Column<string>;
  verdicts: Column<ResourceVerdict>;
  /** The resources with a finding, kept for their owners (the rest are dropped as judged). */
  withFindings: Map<string, CollectedResource>;
}

/**
 * Collects a kind and judges each resource as it arrives, at most `concurrency` of them waiting
 * for parts at once; only the verdicts are kept, and the resources with a finding (for their
 * owners). The total is reported once the collection ends. A collection that fails fails the
 * whole kind (what was judged of it is dropped).
 */
async function judgeKind(
  ctx: JudgeContext,
  kind: ResourceKind,
  plans: PolicyPlan[],
  pre: CollectedResource[] | { error: unknown } | undefined,
  opts: RunOptions,
  run: { concurrency: number; progress: ReturnType<typeof kindProgress>; kinds: ReadonlySet<string> },
): Promise<Judged | { error: unknown }> {
  if (pre && !Array.isArray(pre)) return pre;
  const reads = { parts: new Set(plans.flatMap((p) => [...p.select, ...p.judge])), kinds: run.kinds };
  const judged: Judged = { ids: new Column(), verdicts: new Column(), withFindings: new Map() };
  let read = 0;
  let listed = false;
  const judgedRow = (r: CollectedResource, found: boolean) => {
    if (found) judged.withFindings.set(r.id, r);
    read++;
    if (listed) run.progress.resourceRead();
  };
  await eachPooled(
    pre ?? kind.collect(collectContext(kind, opts, ctx.memo, reads)),
    run.concurrency,
    (r, index) => {
      judged.ids.push(r.id);
      const found = judgeRow(ctx, kind, plans, r, judged.verdicts, index * plans.length);
      if (!(found instanceof Promise)) return judgedRow(r, found);
      return found.then((done) => judgedRow(r, done));
    },
    (total) => {
      listed = true;
      run.progress.collected(total, read);
    },
  );
  return judged;
}

/**
 * The parts some resource of the kind read whose shared read failed its check (`verify`, awaited
 * now the kind is collected), with the error; a part nobody read is not checked (no request).
 */
async function failedVerifications(ctx: JudgeContext, kind: ResourceKind, plans: PolicyPlan[]): Promise<Map<string, unknown>> {
  const failed = new Map<string, unknown>();
  const names = new Set(plans.flatMap((p) => [...p.select, ...p.judge]));
  await Promise.all(
    [...names].map(async (name) => {
      const verify = kind.parts[name].verify;
      if (!verify || !ctx.partsRead.has(kind.parts[name])) return;
      try {
        await verify(ctx.api, ctx.memo.once);
      } catch (err) {
        failed.set(name, err);
      }
    }),
  );
  return failed;
}

function collectContext(kind: ResourceKind, opts: RunOptions, memo: RunMemoState, reads?: CollectContext['reads']): CollectContext {
  return { api: opts.api, scope: opts.scope, manifestFiles: opts.manifestFiles, displayRoot: opts.displayRoot, declared: opts.declared?.get(kind.name), once: memo.once, ...(reads ? { reads } : {}) };
}

function collect(kind: ResourceKind, opts: RunOptions, memo: RunMemoState): Promise<CollectedResource[]> {
  return collectAll(kind, collectContext(kind, opts, memo));
}

function policyResult(policy: CompiledPolicy, findings: Finding[], evaluated: number, resourceIds: string[]): PolicyResult {
  const def = policy.def;
  const errors = findings.filter((f) => f.status === 'error');
  const violations = findings.filter((f) => f.status === 'violation').length;
  return {
    id: def.id,
    title: def.title,
    description: def.description,
    severity: def.severity,
    resource: def.resource,
    status: errors.length > 0 ? 'error' : violations > 0 ? 'fail' : 'pass',
    evaluated,
    violations,
    error: errors[0]?.message ?? null,
    resourceIds,
    location: def.location ?? null,
    origin: def.origin ?? null,
    ...(def.source ? { source: def.source } : {}),
    tags: def.tags ?? [],
    enforcement: def.enforcement ?? DEFAULT_ENFORCEMENT,
    controls: def.controls ?? {},
  };
}

export async function runPolicies(opts: RunOptions): Promise<RunResult> {
  const memo = opts.memo ?? createRunMemo();
  const stoppedBy: RunWideCause[] = [];
  const stop = (err: unknown) => {
    const cause = runWideCause(err);
    if (cause && !stoppedBy.some((s) => s.cause === cause.cause)) stoppedBy.push(cause);
  };
  const ctx: JudgeContext = { api: opts.api, memo, partMemo: createPartMemo(), now: opts.now, stop, inspect: opts.inspect, partsRead: new Set() };
  const concurrency = opts.concurrency ?? ENGINE_CONCURRENCY_DEFAULT;
  const kindNames = [...new Set(opts.policies.map((p) => p.def.resource))].filter((k) => opts.kinds[k]);
  const kindsInRun: ReadonlySet<string> = new Set(kindNames);

  // Declared kinds first: a bad manifest is bad input (exit 2) and must stop the run before
  // any request is sent.
  const collected = new Map<string, CollectedResource[] | { error: unknown }>();
  for (const name of kindNames.filter((k) => !opts.kinds[k].live)) {
    try {
      collected.set(name, await collect(opts.kinds[name], opts, memo));
    } catch (err) {
      if (err instanceof InputError) throw err;
      collected.set(name, { error: err });
    }
  }

  const perPolicy = new Map<CompiledPolicy, { findings: Finding[]; evaluated: number; ids: string[] }>();
  const collectedPerKind = new Map<string, number>();
  const evaluatedPerKind = new Map<string, number>();
  let resources = 0;
  await Promise.all(
    kindNames.map(async (name) => {
      const kind = opts.kinds[name];
      const policies = opts.policies.filter((p) => p.def.resource === name);
      const plans = policies.map((policy) => ({
        policy,
        select: partsRead(kind, policy.reads.select),
        judge: partsRead(kind, policy.reads.judge),
        env: { params: policy.params, now: opts.now },
      }));
      const progress = kindProgress(name, opts.onProgress);
      let judged: Judged | { error: unknown };
      try {
        judged = await judgeKind(ctx, kind, plans, collected.get(name), opts, { concurrency, progress, kinds: kindsInRun });
      } catch (err) {
        if (err instanceof InputError) throw err;
        judged = { error: err };
      }
      if ('error' in judged) {
        progress.collected(0, 0);
        const message = `could not collect ${name} resources: ${errorText(judged.error)}`;
        for (const p of policies) perPolicy.set(p, { findings: [errorFinding(p.def, name, null, message, null, null, judged.error)], evaluated: 0, ids: [] });
        await attachOwners({ api: ctx.api, once: memo.once, partMemo: ctx.partMemo }, kind, policies.flatMap((p) => perPolicy.get(p)!.findings), new Map(), concurrency);
        stop(judged.error);
        return;
      }
      const { ids: idColumn, verdicts } = judged;
      // One array of the kind's ids, made once at its size, shared by every policy that judged them all.
      const ids = idColumn.toArray();
      resources += ids.length;
      collectedPerKind.set(name, ids.length);
      const unverified = await failedVerifications(ctx, kind, plans);
      const kindFindings: Finding[] = [];
      // The policies whose verdicts stand (no shared read of theirs failed its check), and
      // whether one of them judged every resource of the kind.
      const standing = policies.map(() => false);
      let judgedAll = false;
      policies.forEach((p, pi) => {
        const acc = { findings: [] as Finding[], evaluated: 0, ids: [] as string[] };
        // A shared read whose check failed once the kind was collected: no verdict of the policy stands.
        let shared: unknown = [...plans[pi].select, ...plans[pi].judge].map((part) => unverified.get(part)).find((e) => e !== undefined);
        if (shared === undefined) {
          // The policy's resources: the kind's own id list while it judged every one so far (a
          // policy without `when` shares it: 300,000 ids copied per policy cost ~2.4 MB each).
          let own: string[] | null = null;
          ids.forEach((id, ri) => {
            const v = verdicts.get(ri * policies.length + pi);
            if (v.sharedError !== undefined) shared ??= v.sharedError;
            acc.evaluated += v.selected;
            if (judgedOn(v)) own?.push(id);
            else own ??= ids.slice(0, ri);
            for (const f of v.findings) acc.findings.push(f);
          });
          acc.ids = own ?? ids;
          standing[pi] = true;
          judgedAll ||= own === null;
        }
        if (shared !== undefined) {
          const message = `could not read ${name} data shared by all resources: ${errorText(shared)}`;
          acc.findings.unshift(errorFinding(p.def, name, null, message, null, null, shared));
          stop(shared);
        }
        perPolicy.set(p, acc);
        for (const f of acc.findings) kindFindings.push(f);
      });
      evaluatedPerKind.set(name, judgedAll ? ids.length : judgedResources(verdicts, ids.length, standing));
      await attachOwners({ api: ctx.api, once: memo.once, partMemo: ctx.partMemo }, kind, kindFindings, judged.withFindings, concurrency);
    }),
  );

  const results: PolicyResult[] = [];
  const findings: Finding[] = [];
  const warnings: string[] = [];
  let checks = 0;
  const emptyScopes: [key: string, policy: string][] = [];
  for (const p of opts.policies) {
    const acc = perPolicy.get(p) ?? {
      findings: [{ ...errorFinding(p.def, p.def.resource, null, `unknown resource kind ${p.def.resource}`), owner: null, ownerUnknown: 'the kind is unknown' }],
      evaluated: 0,
      ids: [],
    };
    checks += acc.evaluated;
    // The API lists resources in its own order (schedules by title): sort by resource instead.
    // One by one: a spread of 100,000 findings would overflow the call stack.
    for (const f of orderFindings(acc.findings)) findings.push(f);
    const result = policyResult(p, acc.findings, acc.evaluated, acc.ids);
    const empty = emptyScopeKey(opts, result, collectedPerKind.get(p.def.resource) ?? 0);
    if (empty) emptyScopes.push([empty, result.id]);
    results.push(empty ? { ...result, status: 'skipped' } : result);
  }
  const empty = emptyScopeWarning(emptyScopes, opts.scope);
  if (empty) warnings.push(empty);
  // Most severe first across policies (a policy's findings share its severity and stay together).
  return {
    results,
    findings: orderBySeverity(findings),
    resources,
    checks,
    warnings,
    collected: Object.fromEntries(collectedPerKind),
    evaluated: Object.fromEntries(evaluatedPerKind),
    stoppedBy,
  };
}

/**
 * The kind's resources some standing policy judged, counted over the verdicts (a set of 300,000
 * ids built for the count cost ~30 MB at the end of a run).
 */
function judgedResources(verdicts: Column<ResourceVerdict>, resources: number, standing: readonly boolean[]): number {
  let count = 0;
  for (let ri = 0; ri < resources; ri++) {
    for (let pi = 0; pi < standing.length; pi++) {
      if (standing[pi] && judgedOn(verdicts.get(ri * standing.length + pi))) {
        count++;
        break;
      }
    }
  }
  return count;
}

/**
 * One line for every policy that checked nothing: the empty scope keys, the keys whose listing
 * (`all`) gave nothing, and the policies.
 */
function emptyScopeWarning(empty: [key: string, policy: string][], scope: Scope): string | null {
  if (empty.length === 0) return null;
  const keys = [...new Set(empty.map(([k]) => k))];
  const named = keys.filter((k) => !scope.discover[k]).map((k) => `scope.${k}`);
  const listed = keys.filter((k) => scope.discover[k]).map((k) => `scope.${k}: all`);
  const why = [
    ...(named.length > 0 ? [`${named.join(', ')} ${named.length === 1 ? 'is' : 'are'} empty`] : []),
    ...(listed.length > 0 ? [`${listed.join(', ')} listed none`] : []),
  ].join('; ');
  if (empty.length === 1) return `policy ${empty[0][1]} checked nothing: ${why}`;
  return `${empty.length} policies checked nothing: ${why} (${empty.map(([, id]) => id).join(', ')})`;
}

/**
 * The scope key of a policy that checked nothing because its kind's scope list names nothing
 * (`skipped`, not `pass`: a pass would claim something was checked), or whose listing (`all`)
 * gave nothing; else null. A kind also found through another (cards sent by schedules) counts
 * only when nothing was collected either.
 */
function emptyScopeKey(opts: RunOptions, result: PolicyResult, collected: number): string | null {
  const input = opts.kinds[result.resource]?.inputs.scope;
  if (!input || result.status !== 'pass' || result.evaluated > 0 || collected > 0 || scopeEntries(opts.scope, input).length > 0) return null;
  return input.key;
}
