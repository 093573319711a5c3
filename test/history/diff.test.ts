// Two runs compared (pure): a finding whose status, severity or message changed under the same
// fingerprint is `changed`; one gone from a policy the later run could not evaluate is not fixed.
import { describe, expect, it } from 'vitest';
import { type DiffFinding, type DiffSide, diffFindings, onInstance } from '../../src/history/index.js';

const finding = (id: string, over: Partial<DiffFinding> = {}): DiffFinding => ({
  fingerprint: `fp-${id}`,
  policy: 'p',
  severity: 'high',
  status: 'violation',
  resource: { kind: 'dataset', id, name: null },
  message: `dataset ${id} has no owner group`,
  ...over,
});

const side = (label: string, findings: DiffFinding[], status = 'fail'): DiffSide => ({
  label,
  instance: 'https://acme.example.com',
  startedAt: '2026-11-01T00:00:00.000Z',
  findings,
  policies: new Map([['p', status]]),
});

describe('diffFindings', () => {
  it('sorts findings into new, reopened, fixed and changed', () => {
    const from = side('run 1', [finding('a'), finding('b'), finding('c')]);
    const to = side('run 2', [finding('a', { status: 'waived' }), finding('c', { severity: 'critical', message: 'worse' }), finding('d'), finding('e')]);
    const diff = diffFindings(from, to, new Set(['fp-e']));
    expect(diff.new.map((f) => f.resource.id)).toEqual(['d']);
    expect(diff.reopened.map((f) => f.resource.id)).toEqual(['e']);
    expect(diff.fixed.map((f) => f.resource.id)).toEqual(['b']);
    expect(diff.changed.map(({ before, after }) => [before.resource.id, before.status, after.status, after.severity])).toEqual([
      ['a', 'violation', 'waived', 'high'],
      ['c', 'violation', 'violation', 'critical'],
    ]);
  });

  it('where the later side says which resources it evaluated (a JSON report), a finding on one it did not is gone, not fixed', () => {
    const to: DiffSide = { ...side('b.json', []), evaluated: new Map([['p', new Set(['a'])]]) };
    expect(diffFindings(side('a.json', [finding('a'), finding('b')]), to, new Set()).fixed.map((f) => f.resource.id)).toEqual(['a']);
  });

  it('a policy the later run could not evaluate fixes nothing', () => {
    const diff = diffFindings(side('run 1', [finding('a')]), side('run 2', [], 'error'), new Set());
    expect(diff.fixed).toEqual([]);
  });

  it('sides of several instances: the same fingerprint on each instance is a finding of its own', () => {
    // Both instances hold dataset a; staging also holds b, which prod had before.
    const fleet = (label: string, findings: DiffFinding[], staging = 'fail'): DiffSide => ({
      ...side(label, findings),
      instances: ['prod', 'staging'],
      policies: new Map([[onInstance('prod', 'p'), 'fail'], [onInstance('staging', 'p'), staging]]),
    });
    const on = (instance: string, id: string) => finding(id, { instance });
    const from = fleet('a.json', [on('prod', 'a'), on('prod', 'b'), on('staging', 'a')]);
    const to = fleet('b.json', [on('prod', 'a'), on('staging', 'a'), on('staging', 'b')]);
    const diff = diffFindings(from, to, new Set());
    const named = (fs: DiffFinding[]) => fs.map((f) => `${f.instance} ${f.resource.id}`);
    // b moved from prod to staging: new on staging, fixed on prod (keyed by fingerprint alone, neither).
    expect([named(diff.new), named(diff.fixed), diff.changed]).toEqual([['staging b'], ['prod b'], []]);
    // An instance in error in the later run fixes nothing of its own.
    expect(named(diffFindings(fleet('a.json', [on('staging', 'a')]), fleet('b.json', [], 'error'), new Set()).fixed)).toEqual([]);
  });
});
