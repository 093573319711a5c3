// routeTeams (src/library/owners.ts): every finding gets the team of the first `owners:` rule
// its policy, kind, policy's tags and platform owner match; findings alike in all of those are
// matched against the rules once, and nothing else of a finding may decide its team.
import { describe, expect, it } from 'vitest';
import { ownerRules } from '../../src/config/owners.js';
import type { FindingOwner } from '../../src/core/model.js';
import { routeTeams } from '../../src/library/owners.js';
import { makeFinding, makePolicy, makeReport } from '../fixtures/report.js';

const rules = ownerRules(
  [
    { team: 'policy-b', policies: ['p-b'] },
    { team: 'user-a', owners: ['A@example.com'] },
    { team: 'user-2', owners: [2] },
    { team: 'group-7', ownerGroups: [7] },
    { team: 'tagged', tags: ['pii'] },
    { team: 'cards', kinds: ['card'] },
  ],
  (i) => ({ file: 'steward.yaml', line: i + 1, column: 3 }),
);

const user = (id: string, email: string | null): FindingOwner => ({ type: 'USER', id, name: null, email, state: 'active' });

describe('routeTeams', () => {
  it('routes each finding by its own policy, kind, tags and owner, however many share them', () => {
    const finding = (policy: string, owner: FindingOwner | null, kind = 'dataset') => makeFinding({ policy, resource: { kind, id: 'ds-1', name: null }, owner });
    const cases: [ReturnType<typeof finding>, string | null][] = [
      [finding('p-a', user('1', 'a@example.com')), 'user-a'],
      [finding('p-a', user('2', 'b@example.com')), 'user-2'],
      [finding('p-b', user('1', 'a@example.com')), 'policy-b'],
      [finding('p-a', user('1', 'a@example.com')), 'user-a'],
      // The same id as a group owns nothing the user rules name; group 7 does.
      [finding('p-a', { ...user('2', null), type: 'GROUP' }), null],
      [finding('p-a', { ...user('7', null), type: 'GROUP' }), 'group-7'],
      [finding('p-a', user('7', null)), null],
      // One user id, once with the email a rule names and once without any.
      [finding('p-a', user('4', 'a@EXAMPLE.com')), 'user-a'],
      [finding('p-a', user('4', null)), null],
      // By the policy's tags; the same owner under an untagged policy matches nothing.
      [finding('p-tagged', user('9', 'z@example.com')), 'tagged'],
      [finding('p-a', user('9', 'z@example.com')), null],
      // By kind: one policy and no owner, a dataset and a card.
      [finding('p-a', null), null],
      [finding('p-a', null, 'card'), 'cards'],
      [finding('p-b', null, 'card'), 'policy-b'],
    ];
    const policies = ['p-a', 'p-b', 'p-tagged'].map((id) => makePolicy({ id, tags: id === 'p-tagged' ? ['pii'] : [] }));
    const report = makeReport({ policies, findings: cases.map(([f]) => f) });
    routeTeams(report, rules);
    expect(report.findings.map((f) => f.team)).toEqual(cases.map(([, team]) => team));
    // The owner carries the team too, or none when no rule matched.
    expect(report.findings.map((f) => f.owner?.team)).toEqual(cases.map(([f, team]) => (f.owner ? (team ?? undefined) : undefined)));
  });
});
