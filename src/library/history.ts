// The run history through the library: which file a command uses, the runs in it, and two
// runs (or JSON reports) compared.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type Config, DEFAULT_HISTORY_FILE, historyFileOf, isPostgresUrl, loadConfig } from '../config/index.js';
import { displayPath } from '../core/display-path.js';
import { type FailOn, holdsSeveralInstances, type Report } from '../core/model.js';
import { atOrAbove } from '../engine/verdict.js';
import { InputError } from '../core/problem.js';
import {
  type DiffResult,
  type DiffSide,
  diffFindings,
  type HistoryDatabase,
  type HistoryRun,
  listRuns,
  openHistory,
  openPgHistory,
  onInstance,
  runContents,
  seenBefore,
} from '../history/index.js';
import { readInputFileSync } from '../io/input-file.js';
import { parseJsonAt } from '../io/json-source.js';

export interface HistoryOptions {
  /** The history file (relative to the cwd), true for the default one; default the config's `history:`. */
  history?: string | true;
  config?: string;
  cwd?: string;
  env?: Record<string, string | undefined>;
}

const flagProblem = (file: string, message: string) => new InputError([{ file, line: 0, column: 0, message }]);

/** How a history is named in messages and reports: its file, or (a URL is a secret) what it is. */
export function historyLabel(target: string, cwd: string): string {
  return isPostgresUrl(target) ? 'the PostgreSQL history' : displayPath(target, cwd);
}

/**
 * The history a command reads: the one named, else the default file when it exists (what a
 * bare `--history` or `history: true` records into); exit 2 naming where it looked otherwise.
 */
async function requiredHistory(options: HistoryOptions, cwd: string, config: Config): Promise<HistoryDatabase> {
  const named = historyFileOf(options.history, cwd, config);
  const target = named ?? path.resolve(config.baseDir, DEFAULT_HISTORY_FILE);
  if (!named && !existsSync(target)) {
    throw flagProblem('--history', `no run history: ${displayPath(target, cwd)} does not exist; pass --history FILE, or set \`history:\` in steward.yaml (true records into ${DEFAULT_HISTORY_FILE})`);
  }
  if (isPostgresUrl(target)) return openPgHistory(target, historyLabel(target, cwd), { redact: (t) => config.secrets.redact(t) });
  return openHistory(target, displayPath(target, cwd), { create: false });
}

/** Every run of the history, oldest first. */
export async function historyRuns(options: HistoryOptions = {}): Promise<HistoryRun[]> {
  const cwd = options.cwd ?? process.cwd();
  const db = await requiredHistory(options, cwd, loadConfig({ configPath: options.config, cwd, env: options.env, overrides: { history: options.history } }));
  try {
    return await listRuns(db);
  } finally {
    await db.close();
  }
}

export interface DiffOptions extends HistoryOptions {
  /** A run id of the history or a JSON report file; default the second-to-last run. */
  from?: string;
  /** Likewise; default the last run. */
  to?: string;
  failOn?: FailOn;
}

export interface RunDiff extends DiffResult {
  failOn: FailOn;
  /** New or reopened violations at or above failOn: the diff fails (exit 1). */
  failing: number;
}

async function runSide(db: HistoryDatabase, id: number, spec: string): Promise<DiffSide> {
  const contents = await runContents(db, id);
  if (!contents) throw flagProblem(spec, `no run ${id} in the history`);
  return { label: `run ${id}`, instance: contents.run.instance, startedAt: contents.run.startedAt, findings: contents.findings, policies: contents.policies };
}

/** A JSON report file (`--format json`), or exit 2 at it when it is none. */
export async function readReportFile(file: string, cwd: string): Promise<Report> {
  const shown = displayPath(file, cwd);
  const report = parseJsonAt(readInputFileSync(file, shown, 'report'), shown, 'report') as Partial<Report>;
  if (report?.schemaVersion !== 1 || !Array.isArray(report.findings) || !Array.isArray(report.policies) || typeof report.summary !== 'object') {
    throw flagProblem(shown, 'not a steward JSON report (schemaVersion 1 with findings and policies)');
  }
  return report as Report;
}

async function reportSide(file: string, cwd: string): Promise<DiffSide> {
  const shown = displayPath(file, cwd);
  const report = await readReportFile(file, cwd);
  // A report of several instances holds the same fingerprint once per instance: each keeps its name.
  const instances = holdsSeveralInstances(report) ? report.instances!.map((i) => i.name) : undefined;
  const named = (instance: string | undefined) => (instances ? instance : undefined);
  const findings = report.findings.filter((f) => f.status !== 'error').map((f) => ({ ...f, status: f.status as 'violation' | 'waived', instance: named(f.instance) }));
  return {
    label: shown,
    instance: String(report.instance),
    startedAt: String(report.startedAt),
    findings,
    policies: new Map(report.policies.map((p) => [onInstance(named(p.instance), p.id), p.status])),
    evaluated: new Map(report.policies.map((p) => [onInstance(named(p.instance), p.id), new Set(p.resourceIds)])),
    ...(instances ? { instances } : {}),
  };
}

/** A run id of the history (`steward history`'s first column), not a report file. */
const isRunId = (spec: string) => /^\d+$/.test(spec);

async function sideOf(db: HistoryDatabase | null, spec: string, cwd: string): Promise<DiffSide> {
  if (isRunId(spec)) {
    if (!db) throw flagProblem(spec, 'a run id needs a history: pass --history FILE or set `history:` in steward.yaml');
    return runSide(db, Number(spec), spec);
  }
  return reportSide(path.resolve(cwd, spec), cwd);
}

/** Compares two runs: by default the last two of the history. */
export async function diffRuns(options: DiffOptions = {}): Promise<RunDiff> {
  const cwd = options.cwd ?? process.cwd();
  const config = loadConfig({ configPath: options.config, cwd, env: options.env, overrides: { history: options.history } });
  const usesHistory = [options.from, options.to].some((s) => s === undefined || isRunId(s));
  const db = usesHistory ? await requiredHistory(options, cwd, config) : null;
  try {
    let { from, to } = options;
    if (from === undefined || to === undefined) {
      // The last two runs of one instance: a run of several instances records one run each, and
      // the last two runs of the history would be two instances' runs of one check.
      const [last] = await listRuns(db!, { limit: 1 });
      const runs = last ? await listRuns(db!, { instance: last.instance, limit: 2 }) : [];
      if (runs.length < 2) throw flagProblem(displayPath(db!.file, cwd), `diff needs two runs${last ? ` of ${last.instance}` : ''}; the history has ${runs.length}`);
      from ??= String(runs[0]!.run);
      to ??= String(runs[1]!.run);
    }
    const [a, b] = [await sideOf(db, from, cwd), await sideOf(db, to, cwd)];
    // Findings of several instances against one instance's: nothing would match, all new and fixed.
    if (Boolean(a.instances) !== Boolean(b.instances)) {
      const [several, one] = a.instances ? [a, b] : [b, a];
      throw flagProblem(one.label, `${several.label} holds several instances (${several.instances!.join(', ')}), ${one.label} one: diff two reports of the same instances, or each instance's runs`);
    }
    const earlier = db && isRunId(from) ? await seenBefore(db, a.instance, Number(from)) : new Set<string>();
    const result = diffFindings(a, b, earlier);
    const failOn = options.failOn ?? config.failOn;
    const failing = [...result.new, ...result.reopened].filter((f) => f.status === 'violation' && atOrAbove(f.severity, failOn)).length;
    return { ...result, failOn, failing };
  } finally {
    await db?.close();
  }
}
