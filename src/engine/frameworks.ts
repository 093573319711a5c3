// Framework mapping: each policy names the controls it evidences (`controls: { SOC2: [CC6.1] }`);
// a report summarises every control of every framework the loaded policies name. A control
// fails when one of its policies failed, is in error when one could not be evaluated, passes
// when all of them ran and passed, and is not evaluated when none of them ran (--only,
// --framework another, an empty scope).
import type { ControlSummary, FrameworkSummary, PolicyResult } from '../core/model.js';
import { compareNatural } from '../core/order.js';

interface Mapped {
  id: string;
  controls: Record<string, string[]>;
}

const STATUS_ORDER: ControlSummary['status'][] = ['error', 'fail', 'pass', 'not-evaluated'];

/** The frameworks the policies name, sorted, each with its controls in natural order. */
export function frameworkSummaries(loaded: readonly Mapped[], results: readonly PolicyResult[]): FrameworkSummary[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const controls = new Map<string, Map<string, string[]>>();
  for (const p of loaded) {
    for (const [framework, ids] of Object.entries(p.controls)) {
      const perControl = controls.get(framework) ?? new Map<string, string[]>();
      for (const control of ids) (perControl.get(control) ?? perControl.set(control, []).get(control)!).push(p.id);
      controls.set(framework, perControl);
    }
  }
  return [...controls.keys()].sort(compareNatural).map((name) => ({
    name,
    controls: [...controls.get(name)!.entries()]
      .sort(([a], [b]) => compareNatural(a, b))
      .map(([id, policies]) => ({ id, status: controlStatus(policies.map((p) => byId.get(p))), policies: [...policies].sort() })),
  }));
}

function controlStatus(results: (PolicyResult | undefined)[]): ControlSummary['status'] {
  const ran = results.filter((r): r is PolicyResult => r !== undefined && r.status !== 'skipped');
  if (ran.length === 0) return 'not-evaluated';
  const statuses = new Set<string>(ran.map((r) => r.status));
  return STATUS_ORDER.find((s) => statuses.has(s)) ?? 'pass';
}

/** Whether a policy is mapped to the framework (case-insensitive name). */
export function mappedTo(framework: string, policy: Mapped): boolean {
  return Object.keys(policy.controls).some((name) => name.toLowerCase() === framework.toLowerCase());
}
