import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { appliesOn, applyWaivers, globMatches, loadWaivers, parseWaivers } from '../../src/engine/waivers.js';
import { InputError } from '../../src/core/problem.js';
import type { Finding } from '../../src/core/model.js';
import { DEMO } from './harness.js';

function finding(over: Partial<Finding> & { id?: string }): Finding {
  const { id = 'q-a', ...rest } = over;
  return {
    policy: 'queue-no-admin-for-users',
    severity: 'high',
    status: 'violation',
    resource: { kind: 'queue', id, name: null },
    path: null,
    item: null,
    message: 'm',
    location: null,
    fingerprint: `fp-${id}-${over.item ?? ''}`,
    baseline: null,
    fix: null,
    waiver: null,
    ...rest,
  };
}

const waiverYaml = (extra: string) => `waivers:
  - policy: queue-no-admin-for-users
    resource: ${extra}
    reason: accepted
    owner: gov@example.com
    expires: 2026-01-16
`;

describe('glob', () => {
  it.each([
    ['q-*', 'q-a', true],
    ['q-*', 'q-', true],
    ['q-*', 'xq-a', false],
    ['q', 'q-a', false],
    ['q-a*x', 'q-a', false],
    ['q-a*x', 'q-abcx', true],
    ['q-?', 'q-a', true],
    ['q-?', 'q-ab', false],
    ['q.a', 'qxa', false],
    ['q[ab]', 'qa', false],
    ['q[ab]', 'q[ab]', true],
    ['*', 'anything/at all', true],
  ])('%s matches %s: %s', (glob, value, expected) => {
    expect(globMatches(glob, value)).toBe(expected);
  });
});

describe('parseWaivers', () => {
  it('reads the demo waivers with positions', async () => {
    const waivers = await loadWaivers(path.join(DEMO, 'waivers.yaml'), 'demo/waivers.yaml');
    expect(waivers).toEqual([
      {
        policy: 'queue-no-admin-for-users',
        resource: 'q-support-escalations',
        item: '15',
        reason: 'break-glass account for incident response, access reviewed quarterly',
        owner: 'governance@acme.example',
        expires: '2099-12-31',
        location: { file: 'demo/waivers.yaml', line: 3, column: 5 },
      },
    ]);
  });

  it('numbers become strings (data file 42, item 7)', () => {
    const [w] = parseWaivers(waiverYaml('42\n    item: 7'), 'w.yaml');
    expect([w.resource, w.item]).toEqual(['42', '7']);
  });

  it.each([
    ['a missing owner', waiverYaml('q').replace('    owner: gov@example.com\n', ''), 2, 5, /missing required key "owner"/],
    ['a bad date', waiverYaml('q').replace('2026-01-16', '2026-02-30'), 6, 14, /not a date/],
    ['a date in another format', waiverYaml('q').replace('2026-01-16', '16/01/2026'), 6, 14, /expires must match/],
    ['an unknown key', waiverYaml('q').replace('    reason', '    until: x\n    reason'), 4, 5, /unknown key "until"/],
    ['a YAML error', 'waivers: [\n', 2, 1, /invalid YAML/],
    ['an unquoted glob', waiverYaml('*'), 3, 15, /quote a value that starts with \*/],
    ['a created that is no date', `${waiverYaml('q')}    created: 2026-02-30\n`, 7, 14, /^created 2026-02-30 is not a date/],
    ['a created after expires', `${waiverYaml('q')}    created: 2026-02-01\n`, 7, 14, /^created 2026-02-01 is after expires 2026-01-16/],
    ['a risk not in the list', `${waiverYaml('q')}    risk: extreme\n`, 7, 11, /^waivers\[0\]\.risk must be one of low, medium, high \(got "extreme"\)$/],
  ])('refuses %s at file:line:column', (_name, text, line, column, message) => {
    try {
      parseWaivers(text, 'waivers.yaml');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(InputError);
      const [p] = (err as InputError).problems;
      expect(p).toMatchObject({ file: 'waivers.yaml', line, column });
      expect(p.message).toMatch(message);
    }
  });

  it('says every problem of the file at once, each at its place; a missing file is named as the waivers file', async () => {
    const text = `${waiverYaml('q').replace('    owner: gov@example.com\n', '')}${waiverYaml('r').replace('waivers:\n', '')}    risk: extreme\n`;
    try {
      parseWaivers(text, 'w.yaml');
      expect.unreachable();
    } catch (err) {
      expect((err as InputError).problems.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([
        '2:5 missing required key "owner" in waivers[0]',
        '11:11 waivers[1].risk must be one of low, medium, high (got "extreme")',
      ]);
    }
    await expect(loadWaivers(path.join(DEMO, 'no-such-waivers.yaml'), 'no-such-waivers.yaml')).rejects.toThrow(/^no-such-waivers\.yaml: cannot read waivers: ENOENT/);
  });

  it('instances: names the config declares; checked only when the config is known', () => {
    const scoped = (list: string) => waiverYaml(`q
    instances: ${list}`);
    const rules = (instances: string[] | null) => ({ allowCatchAll: true, instances });
    expect(parseWaivers(scoped('[prod, eu]'), 'w.yaml', rules(['prod', 'staging', 'eu']))[0]?.instances).toEqual(['prod', 'eu']);
    expect(parseWaivers(scoped('[anything]'), 'w.yaml')[0]?.instances).toEqual(['anything']);
    expect(parseWaivers(waiverYaml('q'), 'w.yaml', rules(null))[0]?.instances).toBeUndefined();
    const refused = (text: string, instances: string[] | null) => {
      try {
        parseWaivers(text, 'w.yaml', rules(instances));
        return expect.unreachable();
      } catch (err) {
        return (err as InputError).problems.map((p) => `${p.line}:${p.column} ${p.message}`);
      }
    };
    expect(refused(scoped('[prod, stagng, qa]'), ['prod', 'staging'])).toEqual([
      `4:23 instances: no instance "stagng" in the config's instances: (prod, staging) (did you mean 'staging'?)`,
      `4:31 instances: no instance "qa" in the config's instances: (prod, staging)`,
    ]);
    expect(refused(scoped('[prod]'), null)).toEqual(['4:16 instances: the config declares no instances:, so there is no instance to name (leave it out)']);
    expect(refused(scoped('[]'), ['prod'])[0]).toMatch(/^4:16 .*must NOT have fewer than 1 items/);
    expect(refused(scoped('[prod, prod]'), ['prod'])[0]).toMatch(/^4:16 .*duplicate/);
  });
});

describe('appliesOn', () => {
  it('a waiver naming no instance applies on every one; one naming some, on those alone', () => {
    expect([appliesOn({}, 'prod'), appliesOn({ instances: ['prod'] }, 'prod'), appliesOn({ instances: ['prod'] }, 'staging'), appliesOn({ instances: ['prod', 'staging'] }, 'staging')]).toEqual([true, true, false, true]);
  });
});

describe('applyWaivers', () => {
  const w = (resource: string, item?: string) => parseWaivers(waiverYaml(item ? `${resource}\n    item: "${item}"` : resource), 'w.yaml')[0];

  it('marks matched violations waived and keeps them; errors are never waived', () => {
    const findings = [finding({ id: 'q-a' }), finding({ id: 'q-b' }), finding({ id: 'q-a', status: 'error' })];
    const out = applyWaivers(findings, [w('q-a')], new Date('2026-01-15T23:59:59Z'));
    expect(out.findings.map((f) => f.status)).toEqual(['waived', 'violation', 'error']);
    expect(out.findings[0].waiver).toMatchObject({ resource: 'q-a', owner: 'gov@example.com' });
    expect(out.expired).toEqual([]);
    expect(out.stale).toEqual([]);
  });

  it('from the expiry day (UTC) on the waiver no longer applies and is listed as expired', () => {
    const waiver = w('q-*');
    const findings = [finding({ id: 'q-a' })];
    expect(applyWaivers(findings, [waiver], new Date('2026-01-15T23:59:59Z')).findings[0].status).toBe('waived');
    // 00:30 in Berlin is still the 15th in UTC.
    expect(applyWaivers(findings, [waiver], new Date('2026-01-16T00:30:00+01:00')).findings[0].status).toBe('waived');
    const onDay = applyWaivers(findings, [waiver], new Date('2026-01-16T00:00:00Z'));
    expect(onDay.findings[0].status).toBe('violation');
    expect(onDay.expired).toEqual([waiver]);
    expect(onDay.stale).toEqual([]);
  });

  it('tells the day without a DateTimeFormat: a start with waivers does not load ICU\'s data (~9 ms)', async () => {
    // A copy of the module of its own (the query makes another instance): nothing made for an earlier test is kept.
    const copy = '../../src/engine/waivers.js?no-earlier-state';
    const fresh = (await import(copy)) as typeof import('../../src/engine/waivers.js');
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    const out = fresh.applyWaivers([finding({ id: 'q-a' })], [w('q-a')], new Date('2026-01-02T12:00:00Z'));
    expect([out.findings[0].status, out.expiring.length]).toEqual(['waived', 1]);
    expect(built).not.toHaveBeenCalled();
    built.mockRestore();
  });

  it('a waiver ending within the warning days is expiring; one ending later, or already ended, is not', () => {
    const waiver = w('q-a'); // expires 2026-01-16
    const expiringOn = (now: string, days: number) => applyWaivers([finding({ id: 'q-a' })], [waiver], new Date(now), days).expiring;
    expect(expiringOn('2026-01-02T12:00:00Z', 14)).toEqual([waiver]);
    expect(expiringOn('2026-01-01T12:00:00Z', 14)).toEqual([]);
    expect(expiringOn('2026-01-16T00:00:00Z', 14)).toEqual([]);
  });

  it('a waiver that matches nothing is stale', () => {
    const out = applyWaivers([finding({ id: 'q-a' })], [w('q-a'), w('q-zzz')], new Date('2026-01-01T00:00:00Z'));
    expect(out.stale.map((x) => x.resource)).toEqual(['q-zzz']);
  });

  it('an item waiver matches only that item', () => {
    const findings = [finding({ id: 'q-s', item: '12' }), finding({ id: 'q-s', item: '15' }), finding({ id: 'q-s' })];
    const out = applyWaivers(findings, [w('q-s', '15')], new Date('2026-01-01T00:00:00Z'));
    expect(out.findings.map((f) => f.status)).toEqual(['violation', 'waived', 'violation']);
  });

  it('the first matching waiver in file order wins, whether it names the id or a glob', () => {
    const [glob, named, itemOnly] = [w('q-*'), w('q-a'), w('q-a', '12')];
    const waiverOf = (waivers: ReturnType<typeof w>[], over: Parameters<typeof finding>[0] = {}) => applyWaivers([finding(over)], waivers, new Date('2026-01-01T00:00:00Z')).findings[0].waiver;
    expect(waiverOf([glob, named])).toBe(glob);
    expect(waiverOf([named, glob])).toBe(named);
    // One for another item is passed over, for the next that matches.
    expect(waiverOf([itemOnly, glob, named])).toBe(glob);
    expect(waiverOf([itemOnly, named, glob])).toBe(named);
    expect(waiverOf([itemOnly, named, glob], { item: '12' })).toBe(itemOnly);
    const second = w('q-a');
    expect(waiverOf([itemOnly, named, second])).toBe(named);
    expect(waiverOf([glob, named], { id: 'q-b' })).toBe(glob);
    expect(waiverOf([named, itemOnly], { id: 'q-b' })).toBeNull();
  });

  it('thousands of waivers each waive their own violation, and the one left over is stale', () => {
    const ids = Array.from({ length: 5_000 }, (_, i) => `q-${i}`);
    const waivers = parseWaivers(`waivers:\n${[...ids, 'q-gone'].reverse().map((id) => waiverYaml(id).replace('waivers:\n', '')).join('')}`, 'w.yaml');
    const out = applyWaivers(ids.map((id) => finding({ id })), waivers, new Date('2026-01-01T00:00:00Z'));
    expect(out.findings.every((f) => f.status === 'waived' && f.waiver?.resource === f.resource.id)).toBe(true);
    expect(out.stale.map((x) => x.resource)).toEqual(['q-gone']);
  });

  it('the policy must match exactly', () => {
    const out = applyWaivers([finding({ policy: 'other' })], [w('"*"')], new Date('2026-01-01T00:00:00Z'));
    expect(out.findings[0].status).toBe('violation');
    expect(out.stale).toHaveLength(1);
  });
});

describe('catch-all waivers', () => {
  it('resource * (or **) is catch-all; listed in the outcome while active, whether or not it matched', () => {
    const all = parseWaivers(waiverYaml('"*"'), 'w.yaml')[0];
    const stars = parseWaivers(waiverYaml('"**"'), 'w.yaml')[0];
    const prefix = parseWaivers(waiverYaml('q-*'), 'w.yaml')[0];
    const out = applyWaivers([finding({ id: 'q-a' })], [all, stars, prefix], new Date('2026-01-15T00:00:00Z'));
    expect(out.findings[0].waiver).toBe(all);
    expect(out.catchAll).toEqual([all, stars]);
    expect(applyWaivers([], [all], new Date('2026-01-16T00:00:00Z')).catchAll).toEqual([]);
  });

  it('with allowCatchAll false it is bad input at its resource value', () => {
    const text = `${waiverYaml('q-a')}${waiverYaml('"*"').replace('waivers:\n', '')}`;
    expect(parseWaivers(text, 'w.yaml', { allowCatchAll: true })).toHaveLength(2);
    let problems: string[] = [];
    try {
      parseWaivers(text, 'w.yaml', { allowCatchAll: false });
    } catch (e) {
      problems = (e as InputError).problems.map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`);
    }
    expect(problems).toEqual([
      'w.yaml:8:15: resource "*" waives every resource of queue-no-admin-for-users, and waiverRules.allowCatchAll is false: name the resources',
    ]);
  });
});
