// Runs the committed bundle the way the runner does: `node dist-action/index.js` from a copy of
// the action's files (no node_modules), in the workspace, inputs as INPUT_<NAME> variables (GitHub keeps the dash: INPUT_FAIL-ON), outputs and
// the job summary through the files named by GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.
import { spawnProcess } from '../cli/helpers.js';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a runner downloads for `uses: owner/steward@v1` and the bundle may read: no node_modules, no src. */
export const ACTION_FILES = ['action.yml', 'package.json', 'dist-action', 'policies', 'schema'];

let checkout: string | null = null;

/** A fresh copy of the action as the runner lays it out (`_actions/owner/steward/v1`), removed at exit. */
export function actionCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'steward-action-checkout-'));
  for (const f of ACTION_FILES) cpSync(join(REPO_ROOT, f), join(dir, f), { recursive: true });
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The copy shared by a test file's runs, made once. */
export function actionCheckout(): string {
  checkout ??= actionCopy();
  return checkout;
}

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  /** Workflow commands on stdout (`::error file=…::message`), in order. */
  commands: { command: string; properties: Record<string, string>; message: string }[];
}

/** A temp workspace holding a copy of demo/ (steward.yaml, manifests, waivers). */
export function demoWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'steward-action-ws-'));
  cpSync(join(REPO_ROOT, 'demo'), dir, { recursive: true });
  return dir;
}

export function removeWorkspace(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Reads the GITHUB_OUTPUT file format written by @actions/core (`name<<DELIM … DELIM`). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const pattern = /^([^\n<=]+)<<(\S+)\n([\s\S]*?)\n?\2$/gm;
  for (const m of text.matchAll(pattern)) outputs[m[1]] = m[3];
  return outputs;
}

function unescapeData(s: string): string {
  return s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
}

function unescapeProperty(s: string): string {
  return unescapeData(s).replaceAll('%3A', ':').replaceAll('%2C', ',');
}

export function parseCommands(stdout: string): ActionRun['commands'] {
  const commands: ActionRun['commands'] = [];
  for (const line of stdout.split('\n')) {
    const m = /^::([a-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (!m) continue;
    const properties: Record<string, string> = {};
    for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
      const eq = pair.indexOf('=');
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
    commands.push({ command: m[1], properties, message: unescapeData(m[3]) });
  }
  return commands;
}

/**
 * Runs the bundle in `workspace` with `inputs` (names as in action.yml), from `checkout`: the
 * shared copy unless given (a test that alters the action's files makes its own, `actionCopy`).
 */
export async function runAction(workspace: string, inputs: Record<string, string>, extraEnv: Record<string, string> = {}, checkout = actionCheckout()): Promise<ActionRun> {
  const files = mkdtempSync(join(tmpdir(), 'steward-action-run-'));
  const outputFile = join(files, 'output');
  const summaryFile = join(files, 'summary.md');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? files,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    RUNNER_TEMP: files,
    ...extraEnv,
  };
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.toUpperCase()}`] = value;
  try {
    // Async spawn: the sandbox answering the action runs in this process's event loop.
    const { code, stdout, stderr } = await spawnProcess(process.execPath, [join(checkout, 'dist-action', 'index.js')], { cwd: workspace, env });
    return {
      code,
      stdout,
      stderr,
      outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
      summary: readFileSync(summaryFile, 'utf8'),
      commands: parseCommands(stdout),
    };
  } finally {
    rmSync(files, { recursive: true, force: true });
  }
}
