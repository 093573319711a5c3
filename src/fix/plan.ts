// Plans fixes (DESIGN §10): the run's unwaived violations whose policy has a `fix`, grouped by
// resource. All fixes of one declared resource are applied to its document in turn, so several
// violations on one queue make ONE request carrying the complete list after every kept fix (the
// permission endpoints replace the whole list). Each fix is kept only if it narrows access and
// the document after it breaks no selected policy that the original did not break; a refused
// fix is listed under "not planned" without holding back the resource's other fixes.
import type { InstanceApi } from '../api/types.js';
import type { Finding } from '../core/model.js';
import type { CollectedResource, FixKind, ResourceDocument, ResourceKind } from '../resources/types.js';
import { describeDiff, describeItemAt, itemKeyAt } from './diff.js';
import { planId, uniqueManifests } from './identity.js';
import { describeAlreadyApplied, type ResumeJournal, resumePlan } from './resume.js';
import type { FixPlan, ManifestRef, NotPlanned, PlannedChange } from './types.js';
import { PLAN_SCHEMA_VERSION } from './types.js';

/** A violation found when re-evaluating a document: its policy and item path. */
export interface DocViolation {
  policy: string;
  path: string | null;
}

/**
 * Evaluates every selected policy of the resource's kind on `doc` (waivers ignored) and returns
 * its violations. Built from the engine's evaluate.ts by `createDocChecker`.
 */
export type DocChecker = (resource: CollectedResource, doc: ResourceDocument) => Promise<DocViolation[]>;

export interface PlanInput {
  findings: Finding[];
  /** The selected policies (only `id` and `fix` are read here). */
  policies: { id: string; fix?: Record<string, unknown> }[];
  resources: CollectedResource[];
  kinds: Record<string, ResourceKind>;
  check: DocChecker;
  /** Plan fixes marked opt-in (dataset tags: the POST may replace the tag list). Default false. */
  allowOptIn?: boolean;
  instance?: string | null;
  now?: Date;
  /** An earlier journal: changes it shows as already applied are left out (resume.ts). */
  journal?: ResumeJournal | null;
  /** Reads what a fix's request needs (the dataset's current tags); without it such fixes are not planned. */
  api?: InstanceApi;
}

interface Step {
  finding: Finding;
  name: string;
  fix: FixKind;
  value: unknown;
}

/** Why a fix of a resource its manifests (`manifests.<key>`) do not declare is not planned: such fixes rewrite the manifest and send what it declares. */
function noManifest(kind: ResourceKind, key: string, id: string): string {
  return `fixes of a ${kind.name} are planned on its manifest, and ${kind.name} ${id} has none: add one under manifests.${key} in steward.yaml declaring its state as it should be, then run fix --write (or change it in the product)`;
}

export async function planFixes(input: PlanInput): Promise<FixPlan> {
  const fixOf = new Map(input.policies.filter((p) => p.fix).map((p) => [p.id, p.fix!]));
  const groups = new Map<string, Finding[]>();
  for (const f of input.findings) {
    // Waived findings are reported, never fixed; errors have nothing to fix.
    if (f.status !== 'violation' || !fixOf.has(f.policy)) continue;
    const key = `${f.resource.kind}\u0000${f.resource.id}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(f);
  }
  const changes: Omit<PlannedChange, 'n'>[] = [];
  const notPlanned: NotPlanned[] = [];
  const keys = [...groups.keys()].sort();
  for (const key of keys) {
    const findings = groups.get(key)!;
    const out = await planResource(input, findings, fixOf);
    changes.push(...out.changes);
    notPlanned.push(...out.notPlanned);
  }
  const numbered = changes.map((c, i) => ({ n: i + 1, ...c }));
  const manifests = uniqueManifests(numbered.map((c) => c.manifest));
  const plan: FixPlan = {
    schemaVersion: PLAN_SCHEMA_VERSION,
    id: planId(numbered, manifests),
    createdAt: (input.now ?? new Date()).toISOString(),
    instance: input.instance ?? null,
    changes: numbered,
    notPlanned,
    manifests,
    withoutFix: input.findings.filter((f) => f.status === 'violation' && !fixOf.has(f.policy)).length,
  };
  return input.journal ? resumePlan(plan, input.journal) : plan;
}

async function planResource(
  input: PlanInput,
  findings: Finding[],
  fixOf: Map<string, Record<string, unknown>>,
): Promise<{ changes: Omit<PlannedChange, 'n'>[]; notPlanned: NotPlanned[] }> {
  const first = findings[0];
  const collected = input.resources.find((r) => r.kind === first.resource.kind && r.id === first.resource.id);
  // Live kinds' fixes are actions whose request needs only the id (the run keeps no documents).
  const live = input.kinds[first.resource.kind]?.live === true;
  const resource: CollectedResource | undefined =
    collected ?? (live ? { ...first.resource, doc: { id: first.resource.id }, source: null } : undefined);
  const manifest: ManifestRef | null = resource?.source
    ? { file: resource.source.file, sha256: resource.source.sha256 }
    : null;
  const refuse = (fs: Finding[], reason: string): NotPlanned => ({
    policies: unique(fs.map((f) => f.policy)),
    findings: fs.map((f) => f.fingerprint),
    resource: first.resource,
    manifest,
    reason,
  });
  const kind = input.kinds[first.resource.kind];
  // A finding means the resource was read and judged: a kind whose documents the run keeps for
  // fixes (one with manifests) lacks only this resource's manifest.
  if (!resource && kind?.inputs.manifests) return { changes: [], notPlanned: [refuse(findings, noManifest(kind, kind.inputs.manifests.key, first.resource.id))] };
  if (!resource || !kind) return { changes: [], notPlanned: [refuse(findings, 'the resource was not collected in this run')] };

  const notPlanned: NotPlanned[] = [];
  const stateSteps: Step[] = [];
  const actionSteps: Step[] = [];
  for (const finding of findings) {
    for (const [name, value] of Object.entries(fixOf.get(finding.policy)!)) {
      const fix = kind.fixes?.[name];
      if (!fix) notPlanned.push(refuse([finding], `${kind.name} has no fix "${name}"`));
      else if (fix.perItem && finding.path === null) notPlanned.push(refuse([finding], `fix "${name}" needs an item`));
      else if (fix.optIn && !input.allowOptIn) {
        notPlanned.push(refuse([finding], `fix "${name}" is opt-in${fix.warning ? `: ${fix.warning}` : ''}`));
      } else (fix.request || fix.byHand ? actionSteps : stateSteps).push({ finding, name, fix, value });
    }
  }
  const changes: Omit<PlannedChange, 'n'>[] = [];
  if (stateSteps.length > 0 && !collected) {
    notPlanned.push(refuse(unique(stateSteps.map((s) => s.finding)), 'the resource was not collected in this run'));
  } else if (stateSteps.length > 0) {
    const result = await planState(input, resource, kind, stateSteps, manifest);
    for (const b of result.blocked) notPlanned.push(refuse(b.findings, b.reason));
    if (result.change) changes.push(result.change);
  }
  const actions = await planActions(input, kind, resource, actionSteps, manifest);
  changes.push(...actions.changes);
  for (const b of actions.blocked) notPlanned.push(refuse(b.findings, b.reason));
  return { changes, notPlanned };
}

interface StatePlan {
  change: Omit<PlannedChange, 'n'> | null;
  /** Fixes left out, each with why (a refused fix does not hold back the others). */
  blocked: { findings: Finding[]; reason: string }[];
}

/**
 * Applies the fixes one by one (in orderSteps' order) and keeps each only if the document after
 * it widens nothing and breaks no policy the declared state did not break; a refused fix is
 * listed with its reason and the rest go on. The kept ones make one request.
 */
async function planState(
  input: PlanInput,
  resource: CollectedResource,
  kind: ResourceKind,
  steps: Step[],
  manifest: ManifestRef | null,
): Promise<StatePlan> {
  const all = (reason: string): StatePlan => ({ change: null, blocked: [{ findings: unique(steps.map((s) => s.finding)), reason }] });
  if (!kind.write) return all(`${kind.name} resources cannot be written`);
  const before = resource.doc;
  let original: DocViolation[];
  try {
    original = await input.check(resource, before);
  } catch (err) {
    return all(`could not re-evaluate the declared document: ${(err as Error).message}`);
  }
  const had = new Set(original.map((v) => violationKey(before, v)));

  const blocked: StatePlan['blocked'] = [];
  const kept: Step[] = [];
  let after = structuredClone(before);
  let fixed = original;
  const removed = new Set<string>();
  for (const step of orderSteps(steps)) {
    const path = step.fix.perItem ? step.finding.path : null;
    // Once an item is removed, later fixes of that same item have nothing left to change.
    if (path !== null && removed.has(path)) {
      kept.push(step);
      continue;
    }
    const candidate = step.fix.apply(structuredClone(after), step.value, path);
    const block = (reason: string) => blocked.push({ findings: [step.finding], reason });
    const widens = kind.widens?.(before, candidate) ?? null;
    // Only fixes that narrow access exist: anything else is refused, whatever the fix says.
    if (widens !== null) {
      block(`refused: the fix would widen access (${widens})`);
      continue;
    }
    let violations: DocViolation[];
    try {
      violations = await input.check(resource, candidate);
    } catch (err) {
      block(`could not re-evaluate the fixed document: ${(err as Error).message}`);
      continue;
    }
    const introduced = violations.filter((v) => !had.has(violationKey(candidate, v)));
    if (introduced.length > 0) {
      const what = introduced.map((v) => `${v.policy}${v.path ? ` at ${describeItemAt(candidate, v.path)}` : ''}`).join(', ');
      block(`the fixed ${kind.name} would break ${what}, which the declared state does not`);
      continue;
    }
    if (path !== null && listSize(candidate, path) < listSize(after, path)) removed.add(path);
    after = candidate;
    fixed = violations;
    kept.push(step);
  }
  if (kept.length === 0) return { change: null, blocked };
  const diff = describeDiff(before, after);
  if (diff.length === 0) {
    blocked.push({ findings: unique(kept.map((s) => s.finding)), reason: 'the fix changes nothing in the declared state' });
    return { change: null, blocked };
  }
  const still = new Set(fixed.map((v) => violationKey(after, v)));
  const warnings = unique(kept.map((s) => s.fix.warning).filter((w): w is string => Boolean(w)));
  const findings = unique(kept.map((s) => s.finding));
  for (const f of findings) {
    if (still.has(violationKey(before, { policy: f.policy, path: f.path }))) {
      warnings.push(`the fix does not resolve ${f.policy}${f.path ? ` at ${f.path}` : ''}`);
    }
  }
  const change: Omit<PlannedChange, 'n'> = {
    type: 'state',
    policies: unique(findings.map((f) => f.policy)),
    findings: findings.map((f) => f.fingerprint),
    resource: findings[0].resource,
    manifest,
    request: kind.write(after, before),
    before,
    after,
    diff,
    warnings,
  };
  return { change, blocked };
}

/**
 * The order fixes are applied in: whole-resource fixes first, then item fixes from the highest
 * index down, so that removing an item never shifts the index another fix names.
 */
function orderSteps(steps: Step[]): Step[] {
  return steps
    .map((step, i) => ({ step, i, index: pathIndex(step.finding.path) }))
    .sort((a, b) => {
      const ai = a.step.fix.perItem ? a.index : Number.POSITIVE_INFINITY;
      const bi = b.step.fix.perItem ? b.index : Number.POSITIVE_INFINITY;
      return bi - ai || a.i - b.i;
    })
    .map((o) => o.step);
}

/** The document with the parts a fix's request reads (dataset tags), loaded through the API. */
async function withReads(input: PlanInput, kind: ResourceKind, resource: CollectedResource, fix: FixKind): Promise<ResourceDocument> {
  const missing = (fix.reads ?? []).filter((name) => !Object.hasOwn(resource.doc, name));
  if (missing.length === 0) return resource.doc;
  if (!input.api) throw new Error(`it needs the current ${missing.join(', ')}, and this plan has no API to read them`);
  const doc = { ...resource.doc };
  for (const name of missing) doc[name] = await kind.parts[name].load(input.api, resource);
  return doc;
}

async function planActions(
  input: PlanInput,
  kind: ResourceKind,
  resource: CollectedResource,
  steps: Step[],
  manifest: ManifestRef | null,
): Promise<{ changes: Omit<PlannedChange, 'n'>[]; blocked: { findings: Finding[]; reason: string }[] }> {
  const byRequest = new Map<string, Omit<PlannedChange, 'n'>>();
  const blocked: { findings: Finding[]; reason: string }[] = [];
  for (const { finding, name, fix, value } of steps) {
    let doc: ResourceDocument;
    try {
      doc = await withReads(input, kind, resource, fix);
    } catch (err) {
      blocked.push({ findings: [finding], reason: `fix "${name}" could not be planned: ${(err as Error).message}` });
      continue;
    }
    if (fix.byHand) {
      blocked.push({ findings: [finding], reason: `fix "${name}" by hand: ${fix.byHand(doc, value, finding.path)}` });
      continue;
    }
    const refused = fix.refusal?.(doc, value, finding.path) ?? null;
    if (refused !== null) {
      blocked.push({ findings: [finding], reason: `fix "${name}" not planned: ${refused}` });
      continue;
    }
    const request = fix.request!(doc, value);
    const key = JSON.stringify(request);
    const existing = byRequest.get(key);
    if (existing) {
      existing.policies = unique([...existing.policies, finding.policy]);
      existing.findings.push(finding.fingerprint);
      continue;
    }
    byRequest.set(key, {
      type: 'action',
      policies: [finding.policy],
      findings: [finding.fingerprint],
      resource: finding.resource,
      manifest,
      request,
      before: doc,
      after: doc,
      diff: [`${name}: ${JSON.stringify(value)}`],
      warnings: fix.warning ? [fix.warning] : [],
      fix: { name, value },
    });
  }
  return { changes: [...byRequest.values()], blocked };
}

/** Identity of a violation across before/after: policy + the offending item's key (not its index). */
function violationKey(doc: ResourceDocument, v: DocViolation): string {
  return `${v.policy}\u0000${v.path === null ? '' : itemKeyAt(doc, v.path)}`;
}

function pathIndex(path: string | null): number {
  const m = path === null ? null : /\[(\d+)\]$/.exec(path);
  return m ? Number(m[1]) : -1;
}

function listSize(doc: ResourceDocument, path: string | null): number {
  const m = path === null ? null : /^(\w+)\[\d+\]$/.exec(path);
  const list = m ? doc[m[1]] : undefined;
  return Array.isArray(list) ? list.length : 0;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

/**
 * The findings with `fix` filled (DESIGN §8: null in `check`): the change that fixes each, or
 * why none was planned. Findings without a fixable policy keep `fix: null`.
 */
export function findingsWithFixes(findings: Finding[], plan: FixPlan): Finding[] {
  const byFingerprint = new Map<string, Record<string, unknown>>();
  for (const c of plan.changes) {
    for (const fp of c.findings) {
      byFingerprint.set(fp, { planned: true, change: c.n, method: c.request.method, path: c.request.path, body: c.request.body });
    }
  }
  for (const p of plan.notPlanned) for (const fp of p.findings) byFingerprint.set(fp, { planned: false, reason: p.reason });
  for (const a of plan.alreadyApplied ?? []) {
    for (const fp of a.findings) byFingerprint.set(fp, { planned: false, reason: describeAlreadyApplied(a) });
  }
  return findings.map((f) => (byFingerprint.has(f.fingerprint) ? { ...f, fix: byFingerprint.get(f.fingerprint)! } : f));
}
