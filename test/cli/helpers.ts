// Runs the CLI with a clean environment: only what the test passes (plus PATH/HOME) reaches it.
// In-process by default (the `run(argv, io)` the binary calls, over the same real HTTP): a
// child process costs half a second of start-up each. Tests of the binary itself, and those
// feeding stdin, spawn the built dist/cli.js as a user would (`spawn: true`).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadPolicies } from '../../src/policy/loader.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import type { Sandbox } from '../../src/sandbox/types.js';

export const REPO = path.resolve(import.meta.dirname, '../..');

/** How many policies the built-in pack holds (tests count against it, never a copy of the number). */
export const BUILTIN_POLICIES = (await loadPolicies(['builtin'], { kinds: RESOURCE_KINDS, cwd: REPO })).length;
export const CLI = path.join(REPO, 'dist/cli.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  env?: Record<string, string>;
  cwd?: string;
  /** Text on stdin (spawns the binary). */
  input?: string;
  /** Run the built binary in a child process instead of in-process. */
  spawn?: boolean;
}

export function runCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  if (options.spawn || options.input !== undefined) return spawnCli(args, options);
  return runInProcess(args, options);
}

async function runInProcess(args: string[], options: RunCliOptions): Promise<CliResult> {
  const { run } = await import('../../src/cli/main.js');
  let stdout = '';
  let stderr = '';
  const code = await run([process.execPath, CLI, ...args], {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    cwd: options.cwd ?? REPO,
  });
  return { code, stdout, stderr };
}

/**
 * A child process, its output collected, without blocking this process's event loop (the sandboxes
 * the child talks to answer in it).
 */
export function spawnProcess(command: string, args: string[], options: { cwd: string; env: Record<string, string | undefined>; input?: string }): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (options.input !== undefined) child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d) => {
      stdout += d;
    });
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The built binary in a child process. */
export function spawnCli(args: string[], options: RunCliOptions = {}): Promise<CliResult> {
  return spawnProcess(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? REPO,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
    input: options.input,
  });
}

/** STEWARD_* variables pointing at a sandbox. */
export function sandboxEnv(sandbox: Sandbox, token = sandbox.token): Record<string, string> {
  return { STEWARD_BASE_URL: sandbox.baseUrl, STEWARD_WORKFLOW_URL: sandbox.workflowUrl, STEWARD_TOKEN: token };
}

/** A fresh temp directory. */
export function tempDir(prefix = 'steward-cli-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

let demoSnapshotFile: string | undefined;

/** A snapshot of the demo instance recorded by the built binary, once per test file. */
export function demoSnapshot(): string {
  if (demoSnapshotFile === undefined) {
    const file = path.join(tempDir('steward-demo-snapshot-'), 'demo.json');
    const r = spawnSync(process.execPath, [CLI, 'snapshot', '--sandbox', '--out', file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`steward snapshot --sandbox exited ${r.status}: ${r.stderr}`);
    demoSnapshotFile = file;
  }
  return demoSnapshotFile;
}

/** A temp copy of demo/ (config, manifests, waivers), to edit without touching the repo. */
export function copyDemo(): string {
  const dir = tempDir('steward-demo-');
  cpSync(path.join(REPO, 'demo'), dir, { recursive: true });
  return dir;
}

/** Every file under dir, recursively, with its text. */
export function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) Object.assign(out, readTree(p));
    else out[p] = readFileSync(p, 'utf8');
  }
  return out;
}

/** The demo's planted violations (demo/PLANTED.md) as `policy resource[ path]`, sorted. */
export const PLANTED = [
  'calculated-fields-links-valid calculatedFields/instance',
  'calculated-fields-valid calculatedFields/instance',
  'certified-datasets-need-owner-group dataset/ds-hr-certified',
  'certified-datasets-need-owner-group dataset/ds-sales-certified',
  'data-files-no-admin-grant dataFile/43 entries[0]',
  'data-files-not-public dataFile/42',
  'data-file-permissions-match-manifest dataFile/44 drift[0]',
  'datasets-have-an-owner dataset/ds-scratch',
  'enabled-schedules-have-recipients reportSchedule/9005',
  'fileset-files-sha256 filesetFile/3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/raw/legacy.csv',
  'no-misconfigured-schedules reportSchedule/9001',
  'no-misconfigured-schedules reportSchedule/9002',
  'no-misconfigured-schedules reportSchedule/9003',
  'queue-entries-grant-something queue/q-hr-requests permissions[1]',
  'queue-no-admin-for-users queue/q-finance-intake permissions[0]',
  'queue-no-admin-for-users queue/q-support-escalations permissions[1]',
  'queue-permissions-match-manifest queue/q-marketing drift[3]',
  'scheduled-cards-certification-current card/7001',
  'schedule-timezone-valid reportSchedule/9004',
  'workflows-are-named workflow/wf-unnamed',
  'access-tokens-not-expired accessToken/186918',
  'access-tokens-owner-active accessToken/186953',
  'access-tokens-short-lived accessToken/186852',
  'admins-at-most role/1',
  'cards-owner-active card/7001',
  'custom-roles-no-admin-grants role/428016579',
  'data-files-owner-active dataFile/43',
  'datasets-owner-active dataset/ds-hr-certified',
  'fileset-files-owner-active filesetFile/3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/raw/a.parquet',
  'fileset-files-owner-active filesetFile/3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/raw/legacy.csv',
  'fileset-files-owner-active filesetFile/3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/reports/q1.csv',
  'groups-have-members group/301',
  'groups-have-owners group/302',
  'groups-owner-active group/307',
  'invitations-not-stale user/60',
  'queues-owner-active queue/q-hr-requests',
  'report-schedules-owner-active reportSchedule/9003',
  'users-not-dormant user/15',
  'workflows-owner-active workflow/wf-nightly-refresh',
  'accounts-owner-active account/46',
  'accounts-share-edit-through-groups account/45 shares[1]',
  'cards-share-through-groups card/7002',
  'certification-requests-current dataset/ds-scratch',
  'certified-datasets-certification-current dataset/ds-legacy-expired',
  'datasets-pdp-no-departed-users dataset/ds-hr-certified',
  'datasets-pdp-open-policy-narrow dataset/ds-finance-certified',
  'datasets-pdp-where-wide dataset/ds-sales-certified',
  'fileset-files-edit-through-groups filesetFile/3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/raw/a.parquet filesetAccess[1]',
  'fileset-files-edit-through-groups filesetFile/3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/raw/legacy.csv filesetAccess[1]',
  'fileset-files-edit-through-groups filesetFile/3f1c2a9e-7b4d-4c1e-9a8f-2d6b5e0c1a77:/reports/q1.csv filesetAccess[1]',
  'page-sharing-matches-manifest page/8002 drift[2]',
  'pages-owner-active page/8003',
  'pages-share-through-groups page/8001',
  'workflows-edit-through-groups workflow/wf-nightly-refresh permissions[1]',
].sort();

interface JsonFinding {
  policy: string;
  status: string;
  resource: { kind: string; id: string };
  path: string | null;
}

/** Findings of a JSON report with the given status, as `policy kind/id[ path]`, sorted. */
export function findingKeys(report: { findings: JsonFinding[] }, status = 'violation'): string[] {
  return report.findings
    .filter((f) => f.status === status)
    .map((f) => `${f.policy} ${f.resource.kind}/${f.resource.id}${f.path ? ` ${f.path}` : ''}`)
    .sort();
}
