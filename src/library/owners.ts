// The config's `owners:` map applied to a report: each finding gets the team its first matching
// rule names (`team`, and `owner.team` when the platform owner is known). Without rules the
// report carries no team at all, so a report says "no rule matched" only when there were rules.
import { type OwnerRule, teamOf } from '../config/index.js';
import type { Report } from '../core/model.js';

/** The policies' tags by id, for matching `tags:` rules. */
function tagsByPolicy(report: Pick<Report, 'policies'>): Map<string, readonly string[]> {
  return new Map(report.policies.map((p) => [p.id, p.tags]));
}

export function routeTeams(report: Report, rules: readonly OwnerRule[]): void {
  if (rules.length === 0) return;
  const tags = tagsByPolicy(report);
  // Findings of one policy, kind and owner route alike, so each such subject meets the rules once:
  // matched finding by finding, 300 rules added 0.4 s to a check of 10,052 findings (8 owners).
  const routed = new Map<string, string | null>();
  const routedTeam = (f: Report['findings'][number]) => {
    const key = JSON.stringify([f.policy, f.resource.kind, f.owner?.type ?? null, f.owner?.id ?? null, f.owner?.email ?? null]);
    let team = routed.get(key);
    if (team === undefined) {
      team = teamOf(rules, { policy: f.policy, kind: f.resource.kind, tags: tags.get(f.policy) ?? [], owner: f.owner });
      routed.set(key, team);
    }
    return team;
  };
  for (const f of report.findings) {
    const team = routedTeam(f);
    f.team = team;
    if (f.owner) {
      if (team) f.owner.team = team;
      else delete f.owner.team;
    }
  }
  for (const f of report.fixed ?? []) f.team = teamOf(rules, { policy: f.policy, kind: f.resource.kind, tags: tags.get(f.policy) ?? [], owner: null });
}
