import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parsePlan, renderPlanJson, renderPlanText } from '../../src/fix/render.js';
import { PLAN_SCHEMA } from '../../src/fix/schema.js';
import type { FixPlan } from '../../src/fix/types.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { clientFor, copyDemoManifests, planRun, WAIVE_BREAK_GLASS } from './helpers.js';

let sandbox: Sandbox;
let root: string;
beforeAll(async () => {
  sandbox = await startSandbox({});
});
afterAll(() => sandbox.close());
beforeEach(() => {
  root = copyDemoManifests();
  sandbox.resetCounts();
});

const summary = (plan: FixPlan) =>
  plan.changes.map((c) => [c.n, c.resource.kind, c.resource.id, c.request.method, c.request.path, c.policies]);

describe('planFixes on the demo manifests', () => {
  it('plans one full-list request per violating resource and sends nothing', async () => {
    const plan = await planRun(root, clientFor(sandbox));
    expect(summary(plan)).toEqual([
      [1, 'dataFile', '42', 'PUT', '/api/data/v1/data-files/42/permissions', ['data-files-not-public']],
      [2, 'dataFile', '43', 'PUT', '/api/data/v1/data-files/43/permissions', ['data-files-no-admin-grant']],
      [3, 'queue', 'q-finance-intake', 'POST', '/api/queues/v1/q-finance-intake/permissions', ['queue-no-admin-for-users']],
      [4, 'queue', 'q-hr-requests', 'POST', '/api/queues/v1/q-hr-requests/permissions', ['queue-entries-grant-something']],
      [5, 'queue', 'q-support-escalations', 'POST', '/api/queues/v1/q-support-escalations/permissions', ['queue-no-admin-for-users']],
    ]);
    expect(plan.changes[0].request.body).toEqual({ publicAccess: false, entries: [{ entityId: '7', grant: 'READ', pass: 'NONE' }] });
    expect(plan.changes[2].request.body).toEqual([
      { id: '7', name: 'Ana Ruiz', type: 'USER', permissions: ['READ'] },
      { id: 'g-88', name: 'Finance Admins', type: 'GROUP', permissions: ['ADMIN'] },
      { id: '9', name: 'Ben Okafor', type: 'USER', permissions: ['READ', 'WRITE'] },
    ]);
    expect(plan.changes[2].diff).toEqual(['permissions[0] USER 7 (Ana Ruiz) permissions: [READ, ADMIN] → [READ]']);
    expect(plan.changes[3].diff).toEqual(['permissions[1] USER 31 (Eva Novak): removed ([])']);
    expect(plan.changes[2].manifest?.file).toBe('permissions/queues/finance-intake.yaml');
    expect(plan.manifests.map((m) => m.file)).toEqual([
      'permissions/data-files/42.yaml',
      'permissions/data-files/43.yaml',
      'permissions/queues/finance-intake.yaml',
      'permissions/queues/hr-requests.yaml',
      'permissions/queues/support-escalations.yaml',
    ]);
    // Revoking ADMIN from user 15 (ADMIN only) would leave an empty entry: a new violation. That
    // fix alone is refused; user 12's revoke on the same queue is still planned (change 5).
    expect(plan.changes[4].request.body).toEqual([
      { id: 'g-21', name: 'Support Leads', type: 'GROUP', permissions: ['ADMIN', 'READ'] },
      { id: '12', name: 'Chen Wei', type: 'USER', permissions: ['READ', 'WRITE'] },
      { id: '15', name: 'On-call Break Glass', type: 'USER', permissions: ['ADMIN'] },
    ]);
    expect(plan.notPlanned).toEqual([
      expect.objectContaining({
        resource: { kind: 'queue', id: 'q-support-escalations', name: null },
        policies: ['queue-no-admin-for-users'],
        reason:
          'the fixed queue would break queue-entries-grant-something at permissions[2] USER 15 (On-call Break Glass), which the declared state does not',
      }),
    ]);
    expect(plan.notPlanned[0].findings).toHaveLength(1);
    expect(plan.changes[4].findings).toHaveLength(1);
    expect(plan.notPlanned[0].findings).not.toEqual(plan.changes[4].findings);
    expect(sandbox.totalRequests()).toBe(0);
  });

  it('does not fix a waived finding; the rest of that queue is planned', async () => {
    const plan = await planRun(root, clientFor(sandbox), { waivers: WAIVE_BREAK_GLASS });
    expect(plan.notPlanned).toEqual([]);
    const support = plan.changes.find((c) => c.resource.id === 'q-support-escalations')!;
    expect(support.n).toBe(5);
    expect(support.request.body).toEqual([
      { id: 'g-21', name: 'Support Leads', type: 'GROUP', permissions: ['ADMIN', 'READ'] },
      { id: '12', name: 'Chen Wei', type: 'USER', permissions: ['READ', 'WRITE'] },
      { id: '15', name: 'On-call Break Glass', type: 'USER', permissions: ['ADMIN'] },
    ]);
    expect(support.findings).toHaveLength(1);
  });

  it('merges several violations of one queue into one request with the complete list', async () => {
    writeFileSync(
      path.join(root, 'permissions/queues/ops.yaml'),
      `queue: q-ops
permissions:
  - { id: "1", name: A, type: USER, permissions: [ADMIN, READ] }
  - { id: "2", name: B, type: USER, permissions: [] }
  - { id: "3", name: C, type: USER, permissions: [WRITE, ADMIN] }
  - { id: g-1, name: G, type: GROUP, permissions: [ADMIN] }
`,
    );
    const plan = await planRun(root, clientFor(sandbox), { only: ['queue-no-admin-for-users', 'queue-entries-grant-something'] });
    const ops = plan.changes.filter((c) => c.resource.id === 'q-ops');
    expect(ops).toHaveLength(1);
    expect(ops[0].policies).toEqual(['queue-no-admin-for-users', 'queue-entries-grant-something']);
    expect(ops[0].findings).toHaveLength(3);
    expect(ops[0].request.body).toEqual([
      { id: '1', name: 'A', type: 'USER', permissions: ['READ'] },
      { id: '3', name: 'C', type: 'USER', permissions: ['WRITE'] },
      { id: 'g-1', name: 'G', type: 'GROUP', permissions: ['ADMIN'] },
      // The removed entry is sent with an empty list: that is how the platform removes it.
      { id: '2', name: 'B', type: 'USER', permissions: [] },
    ]);
    expect(ops[0].diff).toEqual([
      'permissions[0] USER 1 (A) permissions: [ADMIN, READ] → [READ]',
      'permissions[1] USER 2 (B): removed ([])',
      'permissions[2] USER 3 (C) permissions: [WRITE, ADMIN] → [WRITE]',
    ]);
  });

  it('refuses only the fix that would break another policy; the safe fix of the same queue is planned', async () => {
    writeFileSync(
      path.join(root, 'permissions/queues/ops.yaml'),
      `queue: q-ops
permissions:
  - { id: "7", name: Ana, type: USER, permissions: [READ, ADMIN, WRITE] }
  - { id: "8", name: Bo, type: USER, permissions: [ADMIN] }
`,
    );
    const plan = await planRun(root, clientFor(sandbox), { only: ['queue-no-admin-for-users', 'queue-entries-grant-something'] });
    const ops = plan.changes.filter((c) => c.resource.id === 'q-ops');
    expect(ops.map((c) => [c.request.method, c.request.path, c.request.body])).toEqual([
      [
        'POST',
        '/api/queues/v1/q-ops/permissions',
        [
          { id: '7', name: 'Ana', type: 'USER', permissions: ['READ', 'WRITE'] },
          { id: '8', name: 'Bo', type: 'USER', permissions: ['ADMIN'] },
        ],
      ],
    ]);
    expect(ops[0].diff).toEqual(['permissions[0] USER 7 (Ana) permissions: [READ, ADMIN, WRITE] → [READ, WRITE]']);
    expect(ops[0].warnings).toEqual([]);
    const blocked = plan.notPlanned.filter((p) => p.resource.id === 'q-ops');
    expect(blocked.map((p) => [p.policies, p.findings.length, p.reason])).toEqual([
      [
        ['queue-no-admin-for-users'],
        1,
        'the fixed queue would break queue-entries-grant-something at permissions[1] USER 8 (Bo), which the declared state does not',
      ],
    ]);
    expect(blocked[0].findings).not.toEqual(ops[0].findings);
    expect(renderPlanText(plan)).toContain(
      '- queue q-ops (queue-no-admin-for-users): the fixed queue would break queue-entries-grant-something at permissions[1] USER 8 (Bo)',
    );
  });

  it('writes to the queue id as written: `queue: 0123` is queue 0123, not 123', async () => {
    writeFileSync(
      path.join(root, 'permissions/queues/numeric.yaml'),
      'queue: 0123\npermissions:\n  - { id: "7", name: Ana, type: USER, permissions: [READ, ADMIN] }\n',
    );
    const plan = await planRun(root, clientFor(sandbox), { only: ['queue-no-admin-for-users'] });
    const change = plan.changes.find((c) => c.manifest?.file === 'permissions/queues/numeric.yaml')!;
    expect([change.resource.id, change.request.path]).toEqual(['0123', '/api/queues/v1/0123/permissions']);
  });

  it('plans nothing for a compliant repo', async () => {
    rmSync(path.join(root, 'permissions/queues/finance-intake.yaml'));
    rmSync(path.join(root, 'permissions/queues/hr-requests.yaml'));
    rmSync(path.join(root, 'permissions/queues/support-escalations.yaml'));
    const plan = await planRun(root, clientFor(sandbox), { only: ['queue-no-admin-for-users'] });
    expect(plan.changes).toEqual([]);
    expect(plan.notPlanned).toEqual([]);
    expect(renderPlanText(plan)).toContain('Nothing to change.');
  });
});

describe('plan formats', () => {
  it('JSON validates against schema/plan.schema.json (which equals the source schema) and round-trips', async () => {
    const published = JSON.parse(readFileSync('schema/plan.schema.json', 'utf8'));
    expect(published).toEqual(PLAN_SCHEMA);
    const plan = await planRun(root, clientFor(sandbox));
    const validate = new Ajv({ strict: false }).compile(published);
    expect(validate(JSON.parse(renderPlanJson(plan)))).toBe(true);
    expect(parsePlan(renderPlanJson(plan), 'plan.json')).toEqual(plan);
    expect(() => parsePlan('{"schemaVersion":1}', 'plan.json')).toThrow(/plan.json:1:1: not a steward fix plan: \/ must have required property .id./);
  });

  it('text shows the request, the body, before → after and what was not planned', async () => {
    const text = renderPlanText(await planRun(root, clientFor(sandbox)));
    expect(text).toContain(
      [
        '3. queue q-finance-intake (permissions/queues/finance-intake.yaml): queue-no-admin-for-users',
        '   POST /api/queues/v1/q-finance-intake/permissions',
        '   body: [{"id":"7","name":"Ana Ruiz","type":"USER","permissions":["READ"]},{"id":"g-88","name":"Finance Admins","type":"GROUP","permissions":["ADMIN"]},{"id":"9","name":"Ben Okafor","type":"USER","permissions":["READ","WRITE"]}]',
        '   permissions[0] USER 7 (Ana Ruiz) permissions: [READ, ADMIN] → [READ]',
      ].join('\n'),
    );
    expect(text).toContain('Not planned:\n- queue q-support-escalations (queue-no-admin-for-users): the fixed queue would break');
    expect(text.split('\n')[0]).toMatch(/^Fix plan [0-9a-f]{16}: 5 changes, 1 not planned$/);
  });
});
