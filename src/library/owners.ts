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
  for (const f of report.findings) {
    const team = teamOf(rules, { policy: f.policy, kind: f.resource.kind, tags: tags.get(f.policy) ?? [], owner: f.owner });
    f.team = team;
    if (f.owner) {
      if (team) f.owner.team = team;
      else delete f.owner.team;
    }
  }
  for (const f of report.fixed ?? []) f.team = teamOf(rules, { policy: f.policy, kind: f.resource.kind, tags: tags.get(f.policy) ?? [], owner: null });
}
