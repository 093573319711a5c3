// `steward waive`: starter waivers for the violations of a JSON report (adopting a new policy
// without failing every run), appended to the waivers file with its comments and layout kept.
// The new file is parsed like any waivers file before it replaces the old one, whole
// (io/write-whole.ts), so a crash or a bad value never leaves a broken or half-written file.
import { existsSync, readFileSync } from 'node:fs';
import { isMap, isSeq, parseDocument, YAMLSeq } from 'yaml';
import type { GovernedWaiverField, Report, WaiverRef } from '../core/model.js';
import { InputError, type InputProblem } from '../core/problem.js';
import { literalGlob } from '../core/glob.js';
import { appliesOn, isCalendarDate, parseWaivers, today, type WaiverRules } from '../engine/waivers.js';
import { decodeUtf8, readInputFileSync, STDIN } from '../io/input-file.js';
import { jsonProblem, parseJsonAt } from '../io/json-source.js';
import { writeWholeSync } from '../io/write-whole.js';

export interface WaiveOptions {
  /** The JSON report whose violations get waivers. */
  report: string;
  /** The waivers file to append to (created when missing). */
  waivers: string;
  /** How both files are named in messages. */
  shown: (file: string) => string;
  owner: string;
  reason: string;
  expires: string;
  extra?: Partial<Record<GovernedWaiverField, string>>;
  /** Only these policies' violations (all when empty). */
  policies?: string[];
  /**
   * The config's waiver rules: what is written must pass them like any waiver (default: none).
   * With its `instances`, each waiver names the instances its violations were seen on.
   */
  rules?: WaiverRules;
  now?: Date;
}

export interface WaiveResult {
  added: WaiverRef[];
  /** Violations the file already waives (same policy, resource and item, applying on their instance). */
  alreadyWaived: number;
}

const key = (w: { policy: string; resource: string; item?: string | null }) => `${w.policy}\u0000${w.resource}\u0000${w.item ?? ''}`;

function readReport(file: string, shown: string): Report {
  const text = file === STDIN ? decodeUtf8(readFileSync(0), 'stdin') : readInputFileSync(file, shown, 'report');
  const data = parseJsonAt(text, shown, 'report') as Partial<Report>;
  if (data === null || typeof data !== 'object' || !Array.isArray(data.findings)) {
    throw jsonProblem(text, shown, [], 'not a steward JSON report (`steward check --format json`): no "findings" list');
  }
  return data as Report;
}

export function waive(options: WaiveOptions): WaiveResult {
  const now = options.now ?? new Date();
  const shownWaivers = options.shown(options.waivers);
  // The flags first, named as flags: checked only in the file written, they were reported at
  // lines of a file that was never written.
  const flagProblems: InputProblem[] = [];
  const flag = (name: string, message: string) => flagProblems.push({ file: name, line: 0, column: 0, message });
  if (!isCalendarDate(options.expires)) flag('--expires', `${options.expires} is not a date (YYYY-MM-DD)`);
  else if (options.expires <= today(now)) flag('--expires', `${options.expires} is not after today (${today(now)}): a waiver must end in the future`);
  if (options.owner.trim() === '') flag('--owner', 'must name who answers for the waivers');
  if (options.reason.trim() === '') flag('--reason', 'must say why the violations are accepted for now');
  if (flagProblems.length > 0) throw new InputError(flagProblems);
  const report = readReport(options.report, options.report === STDIN ? 'stdin' : options.shown(options.report));
  const existing = existsSync(options.waivers) ? readInputFileSync(options.waivers, shownWaivers, 'waivers') : 'waivers: []\n';
  // The file's waivers by what they waive (a lookup per violation, not a scan of the file).
  const known = new Map<string, WaiverRef[]>();
  for (const k of parseWaivers(existing, shownWaivers)) (known.get(key(k)) ?? known.set(key(k), []).get(key(k))!).push(k);
  const only = new Set(options.policies ?? []);
  const added = new Map<string, WaiverRef>();
  let alreadyWaived = 0;
  for (const f of report.findings) {
    if (f.status !== 'violation' || (only.size > 0 && !only.has(f.policy))) continue;
    // The id matched literally: an id holding `*` or `?` must not become a pattern.
    const w: WaiverRef = { policy: f.policy, resource: literalGlob(f.resource.id), ...(f.item ? { item: f.item } : {}), reason: options.reason, owner: options.owner, expires: options.expires };
    // With a config of several instances, a waiver applies where its violation was seen.
    const instance = f.instance !== undefined && options.rules?.instances?.includes(f.instance) ? f.instance : null;
    if (known.get(key(w))?.some((k) => instance === null || appliesOn(k, instance))) {
      alreadyWaived += 1;
      continue;
    }
    const entry = added.get(key(w)) ?? { ...w, ...(options.extra as Partial<WaiverRef>), created: today(now) };
    if (instance !== null && !entry.instances?.includes(instance)) entry.instances = [...(entry.instances ?? []), instance];
    added.set(key(w), entry);
  }
  if (added.size > 0) writeAppended(options.waivers, existing, [...added.values()], shownWaivers, options.rules);
  return { added: [...added.values()], alreadyWaived };
}

function writeAppended(file: string, text: string, added: WaiverRef[], shown: string, rules?: WaiverRules): void {
  const doc = parseDocument(text);
  let list = doc.get('waivers');
  if (!isSeq(list)) {
    if (!isMap(doc.contents) && doc.contents !== null) throw new InputError([{ file: shown, line: 1, column: 1, message: 'not a waivers file: expected a `waivers:` list' }]);
    list = new YAMLSeq();
    doc.set('waivers', list);
  }
  const seq = list as YAMLSeq;
  // A flow list (`waivers: []`) becomes a block list so appended entries read like written ones.
  seq.flow = false;
  for (const w of added) seq.add(doc.createNode(w));
  const next = doc.toString();
  // Checked as the next run will read it, the config's rules included: nothing is written otherwise.
  parseWaivers(next, shown, rules);
  writeWholeSync(file, next);
}
