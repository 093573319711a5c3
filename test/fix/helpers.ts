// A fix run as the CLI does it: demo manifests copied to a temp dir, the queue and data-file
// policies of the demo, the real engine and client against the sandbox, then planFixes.
import { cpSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '../../src/api/index.js';
import type { InstanceApi } from '../../src/api/types.js';
import { runPolicies } from '../../src/engine/run.js';
import { applyWaivers, parseWaivers } from '../../src/engine/waivers.js';
import { planFixes } from '../../src/fix/plan.js';
import { collectDeclared, createDocChecker } from '../../src/fix/recheck.js';
import type { ResumeJournal } from '../../src/fix/resume.js';
import type { FixPlan } from '../../src/fix/types.js';
import { compilePolicy } from '../../src/policy/compile.js';
import { parsePolicyText } from '../../src/policy/loader.js';
import { emptyScope, RESOURCE_KINDS } from '../../src/resources/index.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export const NOW = new Date('2026-06-01T00:00:00Z');

export const FIX_POLICIES = `policies:
  - id: queue-no-admin-for-users
    title: Queues grant ADMIN only through groups
    description: A single user holding ADMIN bypasses review.
    severity: high
    resource: queue
    each: resource.permissions
    when: item.type == 'USER'
    assert: "!('ADMIN' in item.permissions)"
    message: "User {{ item.name }} holds ADMIN on queue {{ resource.id }}"
    fix: { revoke: [ADMIN] }
  - id: queue-entries-grant-something
    title: Queue entries grant something
    description: An empty entry is a leftover.
    severity: low
    resource: queue
    each: resource.permissions
    assert: size(item.permissions) > 0
    message: "{{ item.name }} has no permission on queue {{ resource.id }}"
    fix: { remove: true }
  - id: data-files-not-public
    title: Data files are not public
    description: Public files are readable by anyone.
    severity: high
    resource: dataFile
    assert: "!resource.publicAccess"
    message: "data file {{ resource.id }} is public"
    fix: { publicAccess: false }
  - id: data-files-no-admin-grant
    title: Data-file entries do not grant ADMIN
    description: ADMIN grants on data files are not reviewed.
    severity: medium
    resource: dataFile
    each: resource.entries
    assert: "!item.grant.contains('ADMIN')"
    message: "entity {{ item.entityId }} holds {{ item.grant }} on data file {{ resource.id }}"
    fix: { remove: true }
`;

export const WAIVE_BREAK_GLASS = `waivers:
  - policy: queue-no-admin-for-users
    resource: q-support-escalations
    item: "15"
    reason: break-glass account
    owner: governance@example.com
    expires: 2099-12-31
`;

/** A temp dir holding permissions/queues/*.yaml and permissions/data-files/*.yaml from demo/. */
export function copyDemoManifests(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'steward-fix-'));
  cpSync(path.resolve('demo/permissions'), path.join(root, 'permissions'), { recursive: true });
  return root;
}

export function manifestFiles(root: string): { queues: string[]; dataFiles: string[] } {
  const list = (dir: string) => readdirSync(path.join(root, dir)).map((f) => path.join(root, dir, f));
  return { queues: list('permissions/queues'), dataFiles: list('permissions/data-files') };
}

export function clientFor(sandbox: Sandbox): InstanceApi {
  return createClient({ baseUrl: sandbox.baseUrl, token: sandbox.token, retryBaseDelayMs: 1 });
}

export interface FixRunOptions {
  only?: string[];
  waivers?: string;
  /** An earlier journal to resume from (`fix --journal FILE`). */
  journal?: ResumeJournal | null;
}

/** check + plan, as `steward fix` does (the API is not called: only declared kinds are selected). */
export async function planRun(root: string, api: InstanceApi, options: FixRunOptions = {}): Promise<FixPlan> {
  const { policies: defs, problems } = parsePolicyText(FIX_POLICIES, 'policies.yaml', { kinds: RESOURCE_KINDS });
  if (problems.length > 0) throw new Error(JSON.stringify(problems));
  const selected = defs.filter((d) => !options.only || options.only.includes(d.id)).map((d) => compilePolicy(d));
  const files = manifestFiles(root);
  const run = await runPolicies({
    policies: selected,
    api,
    kinds: RESOURCE_KINDS,
    scope: emptyScope(),
    manifestFiles: files,
    displayRoot: root,
    now: NOW,
  });
  const waivers = options.waivers ? parseWaivers(options.waivers, 'waivers.yaml') : [];
  const { findings } = applyWaivers(run.findings, waivers, NOW);
  return planFixes({
    findings,
    policies: selected.map((p) => p.def),
    resources: await collectDeclared(RESOURCE_KINDS, { api, manifestFiles: files, displayRoot: root }),
    kinds: RESOURCE_KINDS,
    check: createDocChecker(selected, NOW),
    instance: 'sandbox',
    now: NOW,
    journal: options.journal,
  });
}

/**
 * The queue's stored permissions after `body` is sent to a queue whose state was the declared
 * one: an entry sent with `permissions: []` removes that entity (the platform's semantics).
 */
export function queueStateAfter(body: unknown): unknown {
  return (body as { permissions: unknown[] }[]).filter((e) => e.permissions.length > 0);
}
