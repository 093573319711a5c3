// Shared setup of the engine tests: the demo sandbox, a real client over loopback HTTP, the
// demo scope and manifests, and policies compiled from YAML text.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { createClient } from '../../src/api/index.js';
import type { InstanceApi } from '../../src/api/types.js';
import { runPolicies, type RunResult } from '../../src/engine/run.js';
import { type CompiledPolicy, compilePolicy } from '../../src/policy/compile.js';
import { parsePolicyText } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import type { Scope } from '../../src/resources/types.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/types.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const DEMO = path.join(ROOT, 'demo');
/** A fixed clock: the run's `now` and the day waivers are compared with. */
export const NOW = new Date('2026-01-15T12:00:00Z');

export function demoScope(): Scope {
  const config = parse(readFileSync(path.join(DEMO, 'steward.yaml'), 'utf8')) as { scope: { datasets: string[]; cards: (string | number)[]; filesets: Record<string, string[]> } };
  return { ids: { datasets: config.scope.datasets, cards: config.scope.cards.map(String) }, paths: { filesets: config.scope.filesets }, discover: {} };
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => path.join(dir, f));
}

export function demoManifests(): { queues: string[]; dataFiles: string[] } {
  return {
    queues: yamlFiles(path.join(DEMO, 'permissions/queues')),
    dataFiles: yamlFiles(path.join(DEMO, 'permissions/data-files')),
  };
}

export function compilePolicies(text: string, file = 'policies/test.yaml'): CompiledPolicy[] {
  const { policies, problems } = parsePolicyText(text, file, { kinds: RESOURCE_KINDS });
  if (problems.length > 0) throw new Error(problems.map((p) => `${p.line}:${p.column} ${p.message}`).join('\n'));
  return policies.map((p) => compilePolicy(p));
}

/** One entry of a `policies:` list, for tests whose policies differ only in id, kind and assertion. */
export const policyEntry = (id: string, resource: string, assert: string) => `
  - id: ${id}
    title: ${id}
    description: A policy of the test.
    severity: low
    resource: ${resource}
    assert: ${assert}
    message: "{{ resource.id }}"`;

export interface Demo {
  sandbox: Sandbox;
  api: () => InstanceApi;
  run(policies: CompiledPolicy[], api?: InstanceApi): Promise<RunResult>;
  close(): Promise<void>;
}

export async function startDemo(options: SandboxOptions = {}): Promise<Demo> {
  // The demo planted against the run's fixed clock (stale requests and tokens are relative to it).
  const sandbox = await startSandbox({ now: NOW, ...options });
  // One client per run: its GET memo lives as long as the client.
  const api = () =>
    createClient({ baseUrl: sandbox.baseUrl, workflowUrl: sandbox.workflowUrl, token: sandbox.token, retryBaseDelayMs: 1 });
  return {
    sandbox,
    api,
    run: (policies, client) =>
      runPolicies({
        policies,
        api: client ?? api(),
        kinds: RESOURCE_KINDS,
        scope: demoScope(),
        manifestFiles: demoManifests(),
        displayRoot: ROOT,
        now: NOW,
      }),
    close: () => sandbox.close(),
  };
}

/** `policy resource item` of each finding, sorted: what the assertions compare. */
export function summary(run: RunResult): string[] {
  return run.findings.map((f) => `${f.status} ${f.policy} ${f.resource.id}${f.item != null ? ` ${f.item}` : ''}`).sort();
}
