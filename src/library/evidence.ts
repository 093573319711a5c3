// An evidence pack: one check run and everything needed to re-check it offline. The pack holds
// the report (JSON, markdown and HTML), the snapshot of every API answer the run used, the policy
// files, the config with the files it names (manifests, waivers, id lists, baseline) under
// `project/`, the baseline when one was used, the tool version, and MANIFEST.sha256 over all of them. `verify` re-evaluates the
// policies on the snapshot and compares the verdict and every finding, then checks every hash.
// Nothing in the pack holds a token or a header (every file is written redacted).
import { sha256 } from '../core/digest.js';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { SnapshotFile } from '../api/snapshot.js';
import { SNAPSHOT_VERSION, spooledRecorder, withPageSpool, writeSnapshot } from '../api/snapshot.js';
import { packageVersion } from '../config/index.js';
import type { Finding, Report } from '../core/model.js';
import { InputError } from '../core/problem.js';
import { unwritable } from '../io/writable.js';
import { writeWholeSync } from '../io/write-whole.js';
import type { EmptyInstance } from './empty-run.js';
import { evaluate } from './evaluate.js';
import type { CheckOptions } from './prepare.js';

export const EVIDENCE_MANIFEST = 'MANIFEST.sha256';

export interface EvidenceResult {
  report: Report;
  /** The instances that evaluated nothing (the report says whether that was accepted: `Evaluation.empty`). */
  empty: EmptyInstance[];
  /** Files written, relative to the pack, sorted. */
  files: string[];
}

const posix = (p: string) => p.split(path.sep).join('/');

/** The report files of a pack by name (`report.json` required), rendered by the caller's formatters. */
export type RenderReports = (report: Report, cwd: string) => Record<string, string>;

/**
 * Runs the check (options as for `check`) and writes the pack into `out`, which must be empty
 * or absent. `render` gives the report files (the library knows no formatters); `warn` hears
 * what the caller should say (the recording's pages kept in memory).
 */
export async function writeEvidence(options: CheckOptions, out: string, render: RenderReports, warn: (message: string) => void = () => {}): Promise<EvidenceResult> {
  const outProblem = (message: string) => new InputError([{ file: '--out', line: 0, column: 0, message: `${out} ${message}` }]);
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) throw outProblem('is a file: an evidence pack goes into a new directory');
    if (readdirSync(out).length > 0) throw outProblem('is not empty: an evidence pack goes into a new directory');
  }
  // Made (and tried) before the run: a pack that cannot be written is bad input, nothing sent.
  const unwritableOut = unwritable(path.join(out, EVIDENCE_MANIFEST));
  if (unwritableOut) throw outProblem(`cannot hold the pack: ${unwritableOut}`);
  // The pack is written into a folder inside `out` (its file system, its permissions) and moved
  // up when whole, its manifest last: a run that fails part-way (a full disk) leaves `out` empty,
  // as the check above left it, never a half pack.
  const stage = path.join(out, `.steward-pack.${process.pid}.tmp`);
  try {
    const written = await writePack(options, stage, render, warn);
    const entries = readdirSync(stage).sort((a, b) => Number(a === EVIDENCE_MANIFEST) - Number(b === EVIDENCE_MANIFEST));
    for (const entry of entries) renameSync(path.join(stage, entry), path.join(out, entry));
    rmdirSync(stage);
    return written;
  } catch (error) {
    rmSync(stage, { recursive: true, force: true });
    throw error;
  }
}

/** The run, and every file of its pack written into `stage`. */
async function writePack(options: CheckOptions, stage: string, render: RenderReports, warn: (message: string) => void): Promise<EvidenceResult> {
  // The run's pages are spooled to a temporary file as they arrive (api/snapshot-record.ts),
  // until the snapshot is written.
  const evaluation = await withPageSpool(async (spool) => {
    const recorder = spooledRecorder(spool);
    // The pack is one run, re-checkable on its own: a history's lifecycle would not re-evaluate.
    const evaluation = await evaluate({ ...options, history: false, wrapApi: recorder.wrapApi });
    const snapshot = recorder.snapshot() ?? emptySnapshot(evaluation.report);
    mkdirSync(stage);
    await writeSnapshot(path.join(stage, 'snapshot.json'), snapshot, evaluation.prepared.config.secrets);
    return evaluation;
  }, warn);
  const { prepared, report } = evaluation;
  const { secrets } = prepared.config;
  const written: string[] = ['snapshot.json'];
  const put = (rel: string, text: string | Buffer) => {
    const file = path.join(stage, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeWholeSync(file, typeof text === 'string' ? secrets.redact(text) : text);
    written.push(posix(rel));
  };
  for (const [name, text] of Object.entries(render(report, prepared.cwd))) put(name, text);
  put('version.json', `${JSON.stringify({ tool: 'steward', version: packageVersion(), node: process.version, createdAt: report.startedAt }, null, 2)}\n`);

  // Policy files: flat, numbered in load order (names may repeat across folders).
  const policyFiles = [...new Set(prepared.policies.map((p) => path.resolve(prepared.cwd, p.location.file)))];
  policyFiles.forEach((file, i) => {
    put(`policies/${String(i + 1).padStart(2, '0')}-${path.basename(file)}`, readFileSync(file, 'utf8'));
  });
  // The config and what it names, at the same paths relative to the config's folder.
  const { config } = prepared;
  const base = config.baseDir;
  const projectFiles = [
    ...(config.file ? [config.file] : []),
    ...Object.values(config.manifestFiles).flat(),
    ...(config.waiversFile ? [config.waiversFile] : []),
    ...config.listFiles,
  ];
  if (options.baseline) put('baseline.json', readFileSync(path.resolve(prepared.cwd, options.baseline), 'utf8'));
  for (const file of [...new Set(projectFiles)]) {
    const rel = path.relative(base, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue; // contained by the loader already
    put(`project/${posix(rel)}`, readFileSync(file, 'utf8'));
  }
  const files = [...written].sort();
  const manifest = files.map((f) => `${sha256(readFileSync(path.join(stage, f)))}  ${f}\n`).join('');
  writeWholeSync(path.join(stage, EVIDENCE_MANIFEST), manifest);
  return { report, empty: evaluation.empty, files: [...files, EVIDENCE_MANIFEST] };
}

function emptySnapshot(report: Report): SnapshotFile {
  return { version: SNAPSHOT_VERSION, instance: report.instance, recordedAt: report.startedAt, answers: [] };
}

export interface VerifyResult {
  ok: boolean;
  /** One line per file or finding that differs. */
  differences: string[];
  /** Files whose hashes were checked. */
  files: number;
  findings: number;
  gate: Report['summary']['gate'];
}

/**
 * Checks every hash of the pack, then re-evaluates it offline and compares with its report; with
 * `render` (the formatters `writeEvidence` was given), the human reports are rendered again from
 * the pack's JSON and compared too. Nothing outside the pack is read: a manifest line leading
 * out of it, or a symbolic link inside it, is a difference, and the pack is then not re-evaluated.
 */
export async function verifyEvidence(dir: string, render?: RenderReports): Promise<VerifyResult> {
  const manifestFile = path.join(dir, EVIDENCE_MANIFEST);
  if (!existsSync(manifestFile) || !lstatSync(manifestFile).isFile()) {
    throw new InputError([{ file: dir, line: 0, column: 0, message: `no ${EVIDENCE_MANIFEST}: not an evidence pack (steward evidence --out DIR)` }]);
  }
  const manifest = readFileSync(manifestFile, 'utf8');
  const listed = manifest.split('\n').filter(Boolean).length;
  const walk = walkPack(dir);
  const escapes = [...walk.links.map((l) => `${l}: a symbolic link (not followed: a pack holds only its own files)`), ...outsideLines(dir, manifest)];
  if (escapes.length > 0) return { ok: false, differences: escapes, files: listed, findings: 0, gate: 'error' };
  const differences = hashDifferences(dir, manifest, walk.files);
  let report: Report;
  try {
    report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as Report;
  } catch (e) {
    return { ok: false, differences: [...differences, `report.json: unreadable (${(e as Error).message})`], files: listed, findings: 0, gate: 'error' };
  }
  if (render) differences.push(...renderDifferences(dir, report, render));
  const again = await reEvaluate(dir, report).catch((e: Error) => e);
  if (again instanceof Error) {
    differences.push(`re-evaluation failed: ${again.message}`);
  } else {
    if (again.summary.gate !== report.summary.gate) differences.push(`verdict: the report says ${report.summary.gate}, re-evaluation gives ${again.summary.gate}`);
    // One by one: a pack whose 150,000 findings all differ would overflow a spread's arguments.
    for (const d of findingDifferences(report.findings, again.findings)) differences.push(d);
  }
  return { ok: differences.length === 0, differences, files: listed, findings: report.findings.length, gate: report.summary.gate };
}

const MANIFEST_LINE = /^([0-9a-f]{64}) {2}(.+)$/;

/** Manifest lines naming a path that is absolute or leads out of the pack (never read). */
function outsideLines(dir: string, manifest: string): string[] {
  const out: string[] = [];
  for (const line of manifest.split('\n').filter(Boolean)) {
    const name = MANIFEST_LINE.exec(line)?.[2];
    if (name === undefined) continue;
    const rel = path.relative(dir, path.resolve(dir, name));
    if (path.isAbsolute(name) || name.includes('\\') || rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) out.push(`${name}: outside the pack (not read)`);
  }
  return out;
}

function hashDifferences(dir: string, manifest: string, files: readonly string[]): string[] {
  const out: string[] = [];
  const listed = new Set<string>();
  for (const line of manifest.split('\n').filter(Boolean)) {
    const m = MANIFEST_LINE.exec(line);
    if (!m) {
      out.push(`${EVIDENCE_MANIFEST}: malformed line ${JSON.stringify(line)}`);
      continue;
    }
    listed.add(m[2]);
    const file = path.join(dir, m[2]);
    if (!existsSync(file)) out.push(`${m[2]}: missing`);
    else if (sha256(readFileSync(file)) !== m[1]) out.push(`${m[2]}: changed (sha256 differs)`);
  }
  for (const f of files) if (f !== EVIDENCE_MANIFEST && !listed.has(f)) out.push(`${f}: not in ${EVIDENCE_MANIFEST}`);
  return out;
}

/** The pack's regular files and its symbolic links (never followed), relative, `/`-separated. */
function walkPack(dir: string, prefix = '', acc = { files: [] as string[], links: [] as string[] }): typeof acc {
  for (const name of readdirSync(path.join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${name}` : name;
    const st = lstatSync(path.join(dir, rel));
    if (st.isSymbolicLink()) acc.links.push(rel);
    else if (st.isDirectory()) walkPack(dir, rel, acc);
    else acc.files.push(rel);
  }
  return acc;
}

/** The human reports rendered again from the pack's JSON, against the pack's copies. */
function renderDifferences(dir: string, report: Report, render: RenderReports): string[] {
  let rendered: Record<string, string>;
  try {
    rendered = render(report, dir);
  } catch (e) {
    return [`report.json: the reports cannot be rendered from it (${(e as Error).message})`];
  }
  const out: string[] = [];
  for (const [name, text] of Object.entries(rendered)) {
    if (name === 'report.json') continue;
    const file = path.join(dir, name);
    if (existsSync(file) && readFileSync(file, 'utf8') !== text) out.push(`${name}: does not match report.json (rendered again from it, it differs)`);
  }
  return out;
}

async function reEvaluate(dir: string, report: Report): Promise<Report> {
  const project = path.join(dir, 'project');
  const config = ['steward.yaml', 'steward.yml'].map((f) => path.join(project, f)).find(existsSync);
  const policyDir = path.join(dir, 'policies');
  const baseline = path.join(dir, 'baseline.json');
  const { report: again } = await evaluate({
    history: false,
    cwd: existsSync(project) ? project : dir,
    env: {},
    ...(config ? { config } : {}),
    policies: existsSync(policyDir) ? readdirSync(policyDir).sort().map((f) => path.join(policyDir, f)) : [],
    only: report.policies.map((p) => p.id),
    // A pack of a run that evaluated nothing passes only if that run was accepted (not stopped).
    allowEmpty: !report.stoppedBy?.length,
    from: path.join(dir, 'snapshot.json'),
    overrides: report.overrides,
    now: new Date(report.startedAt),
    ...(report.baseline && existsSync(baseline) ? { baseline } : {}),
  });
  return again;
}

const findingKey = (f: Finding) => `${f.policy} ${f.resource.kind}/${f.resource.id}${f.path ? ` ${f.path}` : ''} [${f.fingerprint}]`;

function findingDifferences(recorded: Finding[], again: Finding[]): string[] {
  const text = (f: Finding) => `${f.status}: ${f.message}`;
  const before = new Map(recorded.map((f) => [findingKey(f), text(f)]));
  const after = new Map(again.map((f) => [findingKey(f), text(f)]));
  const out: string[] = [];
  for (const [key, was] of before) {
    const now = after.get(key);
    if (now === undefined) out.push(`finding ${key}: in the report, not in the re-evaluation`);
    else if (now !== was) out.push(`finding ${key}: the report says "${was}", re-evaluation gives "${now}"`);
  }
  for (const key of after.keys()) if (!before.has(key)) out.push(`finding ${key}: in the re-evaluation, not in the report`);
  return out;
}
