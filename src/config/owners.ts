// `owners:`: CODEOWNERS-like routing of findings to teams. Rules are tried in order and the
// first whose every given criterion matches wins; a rule with no criterion is the catch-all.
// Within a criterion any listed value matches (policy ids are globs).
import type { SourceLocation } from '../core/model.js';
import type { InputProblem } from '../core/problem.js';
import { globMatches } from '../core/glob.js';

/** One `owners:` entry as written in steward.yaml (the schema has checked its shape). */
export interface OwnerRuleEntry {
  team: string;
  policies?: string[];
  kinds?: string[];
  tags?: string[];
  /** A GROUP owner, by its id. */
  ownerGroups?: (string | number)[];
  /** A USER owner, by id or email. */
  owners?: (string | number)[];
}

export interface OwnerRule {
  team: string;
  policies: string[] | null;
  kinds: string[] | null;
  tags: string[] | null;
  ownerGroups: string[] | null;
  owners: string[] | null;
  location: SourceLocation;
}

/** What a rule is matched against: a finding (or a fixed finding, whose owner is not kept). */
export interface RoutedSubject {
  policy: string;
  kind: string;
  tags: readonly string[];
  owner: { type: 'USER' | 'GROUP'; id: string; email: string | null } | null | undefined;
}

export function ownerRules(entries: readonly OwnerRuleEntry[], locationOf: (index: number) => SourceLocation): OwnerRule[] {
  const list = <T>(v: T[] | undefined) => (v === undefined ? null : v.map(String));
  return entries.map((e, i) => ({
    team: e.team,
    policies: list(e.policies),
    kinds: list(e.kinds),
    tags: list(e.tags),
    ownerGroups: list(e.ownerGroups),
    owners: list(e.owners)?.map((o) => o.toLowerCase()) ?? null,
    location: locationOf(i),
  }));
}

function matches(rule: OwnerRule, s: RoutedSubject): boolean {
  if (rule.policies && !rule.policies.some((g) => globMatches(g, s.policy))) return false;
  if (rule.kinds && !rule.kinds.includes(s.kind)) return false;
  if (rule.tags && !rule.tags.some((t) => s.tags.includes(t))) return false;
  if (rule.ownerGroups && !(s.owner?.type === 'GROUP' && rule.ownerGroups.includes(s.owner.id))) return false;
  if (rule.owners) {
    const o = s.owner;
    if (o?.type !== 'USER' || !(rule.owners.includes(o.id) || (o.email !== null && rule.owners.includes(o.email.toLowerCase())))) return false;
  }
  return true;
}

/** The first matching rule's team, or null. */
export function teamOf(rules: readonly OwnerRule[], subject: RoutedSubject): string | null {
  return rules.find((r) => matches(r, subject))?.team ?? null;
}

/** A notify channel for a team no rule routes to would never send anything: bad input. */
export function unroutedTeams(notify: readonly { teams?: string[] }[], rules: readonly OwnerRule[], at: (path: (string | number)[], message: string) => InputProblem): InputProblem[] {
  return notify.flatMap((n, i) =>
    (n.teams ?? []).flatMap((team, j) => (rules.some((r) => r.team === team) ? [] : [at(['notify', i, 'teams', j], `notify: team ${JSON.stringify(team)} is named by no owners: rule`)])),
  );
}
