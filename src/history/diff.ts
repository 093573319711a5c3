// Two runs compared (pure): what appeared, what came back, what went, what changed. Each side
// is a run of the history or a JSON report; fingerprints identify findings across runs.
import type { FindingResource, Severity } from '../core/model.js';
import { EVALUATED_STATUSES } from './lifecycle.js';

export interface DiffFinding {
  /** Its instance, where its side holds several (a fingerprint does not name its instance). */
  instance?: string;
  fingerprint: string;
  policy: string;
  severity: Severity;
  status: 'violation' | 'waived';
  resource: FindingResource;
  message: string;
}

export interface DiffSide {
  /** `run 3` or the report file, as shown. */
  label: string;
  instance: string;
  startedAt: string;
  /** Violations and waived findings (errors are not findings of the instance). */
  findings: DiffFinding[];
  /** Policy id (`onInstance`: with its instance where the side holds several) → its status in that run. */
  policies: Map<string, string>;
  /** The instances of a side that holds several (a report of `instances:`, or merged); absent for one. */
  instances?: string[];
  /**
   * Policy key (as in `policies`) → the resources it evaluated: a JSON report's `resourceIds`. A
   * history run keeps findings, not every resource evaluated: absent there.
   */
  evaluated?: Map<string, ReadonlySet<string>>;
}

/**
 * An id (a policy's in `DiffSide.policies`, a finding's fingerprint) as a side keys it: after its
 * instance's name where the side holds several (neither names its instance).
 */
export const onInstance = (instance: string | undefined, id: string): string => (instance === undefined ? id : `${instance}\u0000${id}`);
const findingKey = (f: DiffFinding) => onInstance(f.instance, f.fingerprint);

export interface DiffResult {
  from: { label: string; startedAt: string };
  to: { label: string; startedAt: string };
  /** In `to`, never seen before. */
  new: DiffFinding[];
  /** In `to`, not in `from`, but seen in an earlier run. */
  reopened: DiffFinding[];
  /** In `from`, gone in `to` (whose run evaluated the policy without error, and the resource where `to` says which it evaluated). */
  fixed: DiffFinding[];
  /** In both, with another status, severity or message. */
  changed: { before: DiffFinding; after: DiffFinding }[];
}

const differs = (a: DiffFinding, b: DiffFinding) => a.status !== b.status || a.severity !== b.severity || a.message !== b.message;

/** `seenBefore`: fingerprints of runs before `from` (reports alone: none known). */
export function diffFindings(from: DiffSide, to: DiffSide, seenBefore: ReadonlySet<string>): DiffResult {
  const before = new Map(from.findings.map((f) => [findingKey(f), f]));
  const after = new Map(to.findings.map((f) => [findingKey(f), f]));
  const result: DiffResult = {
    from: { label: from.label, startedAt: from.startedAt },
    to: { label: to.label, startedAt: to.startedAt },
    new: [],
    reopened: [],
    fixed: [],
    changed: [],
  };
  for (const f of after.values()) {
    const was = before.get(findingKey(f));
    if (was) {
      if (differs(was, f)) result.changed.push({ before: was, after: f });
    } else (seenBefore.has(f.fingerprint) ? result.reopened : result.new).push(f);
  }
  for (const f of before.values()) {
    if (after.has(findingKey(f))) continue;
    const policy = onInstance(f.instance, f.policy);
    // A resource the later run did not evaluate (out of its scope, deleted) is gone, not fixed.
    const evaluated = to.evaluated === undefined || to.evaluated.get(policy)?.has(f.resource.id) === true;
    if (EVALUATED_STATUSES.includes(to.policies.get(policy) ?? '') && evaluated) result.fixed.push(f);
  }
  return result;
}
