// The seeded generator: determinism, filler that complies with every built-in policy, the
// planted entities of demo/PLANTED.md at any seed/size, and demo files equal to the state.
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  describeSandbox,
  demoConfigPath,
  demoDir,
  findPackageRoot,
  generateState,
  PLANTED_DATA_FILES,
  PLANTED_DRIFT,
  PLANTED_DATASET_IDS,
  PLANTED_FILESET_ID,
  PLANTED_QUEUES,
  PLANTED_SCHEDULE_IDS,
  SANDBOX_DEFAULT_SEED,
  SANDBOX_DEFAULT_SIZE,
  type SandboxState,
  startSandbox,
} from '../../src/sandbox/index.js';

const size = { ...SANDBOX_DEFAULT_SIZE };
const TIMEZONES = new Set(Intl.supportedValuesOf('timeZone'));

describe('determinism', () => {
  it('the same seed gives a deep-equal state, over HTTP too', async () => {
    const [a, b] = await Promise.all([startSandbox({ seed: 5 }), startSandbox({ seed: 5 })]);
    try {
      expect(a.state).toEqual(b.state);
      expect(a.token).not.toBe(b.token); // random default tokens
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a different seed gives different filler but the same planted entities', () => {
    const a = generateState(1, size);
    const b = generateState(2, size);
    expect(a.schedules.slice(0, 40)).not.toEqual(b.schedules.slice(0, 40));
    expect(a.datasetAccess.get('ds-0001')).toBeDefined();
    expect([...a.filesets.keys()]).not.toEqual([...b.filesets.keys()]);
    expect(a.schedules.slice(40)).toEqual(b.schedules.slice(40));
    expect(a.queuePermissions.get('q-hr-requests')).toEqual(b.queuePermissions.get('q-hr-requests'));
  });

  it('sizes are filler counts: planted entities are always there, even at size 0', () => {
    const zero = generateState(9, {
      schedules: 0, datasets: 0, cards: 0, queues: 0, dataFiles: 0, filesets: 0, filesPerFileset: 0, workflows: 0, users: 0, groups: 0, accessTokens: 0, pages: 0, accounts: 0,
    });
    expect(zero.schedules.map((r) => r.id)).toEqual([...PLANTED_SCHEDULE_IDS]);
    expect([...zero.datasetAccess.keys()].sort()).toEqual([...PLANTED_DATASET_IDS].sort());
    expect([...zero.queuePermissions.keys()]).toEqual(Object.keys(PLANTED_QUEUES));
    expect([...zero.dataFiles]).toEqual(['42', '43', '44']);
    expect([...zero.filesets.keys()]).toEqual([PLANTED_FILESET_ID]);
    expect(zero.workflows.map((w) => w.id)).toEqual(['wf-unnamed', 'wf-nightly-refresh']);
    expect([zero.calculatedFields.invalid, zero.calculatedFields.invalidLink]).toEqual([3, 1]);
    expect(zero.schedules.every((r) => zero.cards.has(String(r.cardId)))).toBe(true);
  });
});

/** Every rule a built-in policy checks, applied to the filler only. */
function fillerProblems(state: SandboxState): string[] {
  const problems: string[] = [];
  const planted = new Set<unknown>([...PLANTED_SCHEDULE_IDS, ...PLANTED_DATASET_IDS]);
  const misconfigured = new Set(state.misconfigured.map((m) => m.id));
  for (const r of state.schedules.filter((x) => !planted.has(x.id))) {
    if (!TIMEZONES.has(r.schedule.timezone)) problems.push(`schedule ${r.id} timezone`);
    if (r.recipientCount < 1) problems.push(`schedule ${r.id} recipients`);
    if (misconfigured.has(r.id)) problems.push(`schedule ${r.id} misconfigured`);
    if (state.certifications.get(`CARD:${r.cardId}`)?.state !== 'ACTIVE') problems.push(`schedule ${r.id} card`);
  }
  for (const [id, access] of state.datasetAccess) {
    if (planted.has(id)) continue;
    if (!access.list.some((e) => e.accessLevel === 'OWNER')) problems.push(`${id} no owner`);
    const certified = state.certifications.get(`DATA_SOURCE:${id}`)?.state;
    if (certified !== null && certified !== 'ACTIVE') problems.push(`${id} certification ${certified}`);
    if (certified === 'ACTIVE' && !access.list.some((e) => e.type === 'GROUP' && e.accessLevel === 'OWNER')) {
      problems.push(`${id} no group owner`);
    }
  }
  for (const card of state.cards) {
    const cert = state.certifications.get(`CARD:${card}`)?.state;
    if (card !== '7001' && cert !== null && cert !== 'ACTIVE') problems.push(`card ${card} ${cert}`);
  }
  for (const [id, entries] of state.queuePermissions) {
    if (id in PLANTED_QUEUES) continue;
    for (const e of entries) {
      if (e.type === 'USER' && e.permissions.includes('ADMIN')) problems.push(`${id} user admin`);
      if (e.permissions.length === 0) problems.push(`${id} empty entry`);
    }
  }
  for (const [id, p] of state.dataFilePermissions) {
    if (id in PLANTED_DATA_FILES) continue;
    if (p.publicAccess) problems.push(`data file ${id} public`);
    if (p.entries.some((e) => e.grant.includes('ADMIN'))) problems.push(`data file ${id} admin`);
  }
  for (const [filesetId, files] of state.filesets) {
    for (const f of files.values()) {
      if (filesetId === PLANTED_FILESET_ID && f.path === '/raw/legacy.csv') continue;
      if (f.hashAlgorithm !== 'SHA_256_HEX' || !/^[0-9a-f]{64}$/.test(f.hash ?? '')) problems.push(`file ${f.path}`);
    }
  }
  for (const w of state.workflows) if (w.id !== 'wf-unnamed' && !w.name) problems.push(`workflow ${w.id}`);
  return problems;
}

describe('filler complies with every built-in policy', () => {
  it.each([SANDBOX_DEFAULT_SEED, 1, 2024])('seed %i', (seed) => {
    const state = generateState(seed, { ...size, schedules: 200, datasets: 60, queues: 10, dataFiles: 10 });
    expect(fillerProblems(state)).toEqual([]);
  });

  it('the planted violations are what demo/PLANTED.md lists', () => {
    const state = generateState(SANDBOX_DEFAULT_SEED, size);
    const sched = (id: number) => state.schedules.find((r) => r.id === id)!;
    expect(state.misconfigured.map((m) => m.id)).toEqual([9001, 9002, 9003]);
    expect(sched(9004).schedule.timezone).toBe('Mars/Olympus');
    expect([sched(9005).schedule.enabled, sched(9005).recipientCount]).toEqual([true, 0]);
    expect([sched(9006).cardId, state.certifications.get('CARD:7001')!.state]).toEqual([7001, 'EXPIRED']);
    expect(state.datasetAccess.get('ds-scratch')!.list.some((e) => e.accessLevel === 'OWNER')).toBe(false);
    expect(state.certifications.get('DATA_SOURCE:ds-legacy-expired')!.state).toBe('EXPIRED');
    expect(state.filesets.get(PLANTED_FILESET_ID)!.get('/raw/legacy.csv')!.hashAlgorithm).toBe('MD5');
  });
});

describe('demo files', () => {
  const root = findPackageRoot();
  const readYaml = (rel: string) => parse(readFileSync(join(demoDir(), rel), 'utf8'));

  it('are found from src/ and from a dist/ location; not outside the package', () => {
    expect(existsSync(join(root, 'package.json'))).toBe(true);
    expect(findPackageRoot(join(root, 'dist'))).toBe(root);
    expect(demoConfigPath()).toBe(join(root, 'demo', 'steward.yaml'));
    expect(() => findPackageRoot(tmpdir())).toThrow(/steward package root not found/);
  });

  it('queue and data-file manifests equal the stored permissions, but for the planted drift', () => {
    const state = generateState(SANDBOX_DEFAULT_SEED, size);
    for (const file of ['finance-intake', 'support-escalations', 'marketing', 'hr-requests']) {
      const m = readYaml(`permissions/queues/${file}.yaml`);
      const drift = m.queue === 'q-marketing' ? [PLANTED_DRIFT.queue] : [];
      expect(state.queuePermissions.get(m.queue)).toEqual([...m.permissions, ...drift]);
    }
    for (const id of ['42', '43', '44']) {
      const m = readYaml(`permissions/data-files/${id}.yaml`);
      expect(String(m.dataFile)).toBe(id);
      const publicAccess = id === '44' ? PLANTED_DRIFT.dataFilePublic : m.publicAccess;
      expect(state.dataFilePermissions.get(id)).toEqual({ publicAccess, entries: m.entries });
    }
  });

  it('steward.yaml scopes the default-size datasets, the planted file set, and the manifests', () => {
    const config = readYaml('steward.yaml');
    const state = generateState(SANDBOX_DEFAULT_SEED, size);
    expect([...config.scope.datasets].sort()).toEqual([...state.datasetAccess.keys()].sort());
    for (const [filesetId, paths] of Object.entries(config.scope.filesets as Record<string, string[]>)) {
      for (const p of paths) expect(state.filesets.get(filesetId)?.has(p)).toBe(true);
    }
    expect(config).toMatchObject({
      policies: ['builtin'],
      manifests: { queues: 'permissions/queues/*.yaml', dataFiles: 'permissions/data-files/*.yaml' },
      waivers: 'waivers.yaml',
      failOn: 'low',
    });
    const waivers = readYaml('waivers.yaml').waivers;
    expect(waivers).toHaveLength(1);
    expect(waivers[0]).toMatchObject({ policy: 'queue-no-admin-for-users', resource: 'q-support-escalations', item: '15' });
  });

  it('describeSandbox names the base URL, workflow URL and token', async () => {
    const s = await startSandbox({ token: 'tok-1' });
    try {
      const text = describeSandbox(s);
      expect(text).toContain(`base URL:      ${s.baseUrl}`);
      expect(text).toContain(`workflow URL:  ${s.baseUrl}/workflow`);
      expect(text).toContain('token:         tok-1');
    } finally {
      await s.close();
    }
  });
});
