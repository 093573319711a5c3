// `--format text`: what a person reads in a terminal. Policies with something to say, most
// severe first; under each its findings (violations, errors, waived); then waiver problems,
// the baseline, run statistics, and the verdict as the last line. Lines are wrapped to the
// width (80 by default) on word boundaries; colour only when the caller asks for it.
import { perInstance } from './instances.js';
import { CATCH_ALL_TITLE, type ErrorGroup, errorGroups, errorSubject, type FormatOptions, type Formatter, findingSubject, locationText, plural, fixedText, historyText, resolvedText, severityRank, sortFindings, sortPolicies, verdictCounts, waiverTarget, attentionSections, groupFindings } from './formatter.js';
import type { Finding, PolicyResult, Report, Severity, WaiverRef } from '../core/model.js';
import { holdsSeveralInstances, resolvedEntriesOf } from '../core/model.js';
import { reportWithVisibleControls } from './visible-controls.js';

export const TEXT_DEFAULT_WIDTH = 80;
/** Never wrap narrower than this, however narrow the terminal claims to be. */
const MIN_WIDTH = 40;
/** How many resolved baseline entries are listed before "and N more". */
export const TEXT_MAX_RESOLVED_LISTED = 10;

const ANSI = {
  red: '\x1b[31m',
  yellow: '\x1b[33m',
  green: '\x1b[32m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  reset: '\x1b[0m',
} as const;
type Style = keyof Omit<typeof ANSI, 'reset'>;

const MARK = { violation: '✖', error: '!', waived: '○', pass: '✔' } as const;
const INDENT = '    ';

function len(s: string): number {
  return [...s].length;
}

/** Word-wrap `text` so that every line, prefix included, fits `width`; long words are split. */
export function wrap(text: string, width: number, first: string, rest: string): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  for (let word of words) {
    const sep = empty ? '' : ' ';
    if (len(line) + len(sep) + len(word) <= width) {
      line += sep + word;
      empty = false;
      continue;
    }
    if (!empty) {
      lines.push(line);
      line = rest;
    }
    // A word longer than a whole line (a URL, an id) is cut into line-sized pieces.
    while (len(rest) + len(word) > width) {
      const room = Math.max(1, width - len(line));
      const chars = [...word];
      lines.push(line + chars.slice(0, room).join(''));
      word = chars.slice(room).join('');
      line = rest;
    }
    line += word;
    empty = word.length === 0;
  }
  lines.push(line);
  return lines;
}

function truncate(s: string, width: number): string {
  const chars = [...s];
  return chars.length <= width ? s : `${chars.slice(0, width - 1).join('')}…`;
}

class Painter {
  constructor(private readonly on: boolean) {}
  paint(style: Style, s: string): string {
    return this.on && s ? `${ANSI[style]}${s}${ANSI.reset}` : s;
  }
  severity(s: Severity, text: string): string {
    const rank = severityRank(s);
    return this.paint(rank <= 1 ? 'red' : rank === 2 ? 'yellow' : 'dim', text);
  }
}

/**
 * One entry: `  ✖ kind/id path: message  (file:line:col)`, wrapped; the location moves to its
 * own line when it does not fit after the message.
 */
function entry(
  mark: string,
  markStyle: Style,
  text: string,
  loc: string,
  width: number,
  p: Painter,
): string[] {
  const lines = wrap(text, width, `  ${mark} `, INDENT);
  const where = loc ? `(${loc})` : '';
  const last = lines.length - 1;
  const out = lines.map((l, i) => (i === 0 ? `  ${p.paint(markStyle, mark)}${l.slice(3)}` : l));
  if (where) {
    if (len(lines[last]) + 2 + len(where) <= width) out[last] += `  ${p.paint('dim', where)}`;
    // A location is what people click or paste into an editor: it stays whole, even past width.
    else out.push(p.paint('dim', INDENT + where));
  }
  return out;
}

/** `policy`: named before the subject where the heading is not the policy (`--group-by owner`). */
function findingLines(f: Finding, width: number, p: Painter, policy?: string): string[] {
  const tag = `${f.baseline ? `[${f.baseline}] ` : ''}${policy ? `${policy} · ` : ''}`;
  const loc = locationText(f.location);
  if (f.status === 'violation') {
    return entry(MARK.violation, 'red', `${tag}${findingSubject(f)}: ${f.message}`, loc, width, p);
  }
  const lines = entry(
    MARK.waived,
    'dim',
    `${tag}${findingSubject(f)}: ${f.message} (waived)`,
    loc,
    width,
    p,
  );
  if (f.waiver) {
    const w = f.waiver;
    const note = `waived by ${w.owner} until ${w.expires}: ${w.reason}`;
    lines.push(...wrap(note, width, INDENT, INDENT).map((l) => p.paint('dim', l)));
  }
  return lines;
}

/** `id  severity  title`: the id and severity stay whole; the title is cut to fit (or dropped). */
function policyHeader(policy: PolicyResult, width: number, p: Painter): string[] {
  // Only levels other than the default are named: they change what the findings mean.
  const level = policy.enforcement && policy.enforcement !== 'hard' ? `  ${policy.enforcement}` : '';
  const head = `${policy.id}  ${policy.severity}${level}`;
  const room = width - len(head) - 2;
  const title = policy.title && room >= 2 ? `  ${truncate(policy.title, room)}` : '';
  return [`${p.paint('bold', policy.id)}  ${p.severity(policy.severity, policy.severity)}${p.paint('dim', level)}${title}`];
}

/** One line per cause: a policy failing on 276 resources is one entry naming how many. */
function errorGroupLines(g: ErrorGroup, width: number, p: Painter): string[] {
  const subject = errorSubject(g);
  const text = subject ? `${subject}: error: ${g.message}` : `error: ${g.message}`;
  return entry(MARK.error, 'yellow', text, locationText(g.location), width, p);
}

/** `findings` without run-wide errors; `allFindings` with them (they keep the policy's own error from being listed). */
function policyBlock(
  policy: PolicyResult,
  findings: Finding[],
  allFindings: Finding[],
  width: number,
  p: Painter,
): string[] {
  const lines = policyHeader(policy, width, p);
  const sorted = sortFindings(findings);
  for (const f of sorted) if (f.status === 'violation') lines.push(...findingLines(f, width, p));
  for (const g of errorGroups({ policies: [policy], findings: allFindings })) lines.push(...errorGroupLines(g, width, p));
  for (const f of sorted) if (f.status === 'waived') lines.push(...findingLines(f, width, p));
  return lines;
}

/** One line per framework: how many controls pass, fail, error, were not evaluated. */
function frameworkLines(report: Report, width: number): string[] {
  if (report.frameworks.length === 0) return [];
  const lines = ['Controls:'];
  for (const f of report.frameworks) {
    const n = (s: string) => f.controls.filter((c) => c.status === s).length;
    const failing = f.controls.filter((c) => c.status === 'fail' || c.status === 'error').map((c) => c.id);
    const text = `${f.name}: ${n('pass')} pass, ${n('fail')} fail, ${n('error')} error, ${n('not-evaluated')} not evaluated${failing.length ? ` (${failing.join(', ')})` : ''}`;
    lines.push(...wrap(text, width, '  ', INDENT));
  }
  return lines;
}

function attentionLines(report: Report, width: number, p: Painter): string[] {
  const lines: string[] = [];
  for (const { title, notes } of attentionSections(report)) {
    lines.push(...wrap(`${title}:`, width, '', '').map((l) => p.paint('bold', l)));
    for (const n of notes) lines.push(...wrap(n, width, '  ', INDENT));
  }
  return lines;
}

function overrideLines(report: Report, width: number): string[] {
  if (report.overrides.length === 0) return [];
  const lines = ['Overridden soft policies (their violations do not fail this run):'];
  for (const o of report.overrides) lines.push(...wrap(`${o.policy}: ${o.reason}`, width, '  ', INDENT));
  return lines;
}

function waiverLines(
  title: string,
  waivers: WaiverRef[],
  verb: string,
  width: number,
  p: Painter,
): string[] {
  if (waivers.length === 0) return [];
  const lines = wrap(title, width, '', '').map((l) => p.paint('bold', l));
  for (const w of waivers) {
    const text = `${waiverTarget(w)} ${verb} ${w.expires} (${w.owner})`;
    lines.push(...entry(MARK.error, 'yellow', text, locationText(w.location), width, p));
  }
  return lines;
}

function baselineLines(report: Report, width: number, p: Painter): string[] {
  if (!report.baseline) return [];
  const count = (b: Finding['baseline']) => report.findings.filter((f) => f.baseline === b).length;
  const { file, resolved } = report.baseline;
  const text = `Baseline ${file}: ${count('new')} new, ${count('known')} known, ${resolved.length} resolved`;
  const lines = wrap(text, width, '', '  ').map((l, i) => (i === 0 ? p.paint('bold', l) : l));
  const entries = resolvedEntriesOf(report.baseline);
  for (const e of entries.slice(0, TEXT_MAX_RESOLVED_LISTED)) {
    lines.push(...wrap(`resolved: ${resolvedText(e, report)}`, width, '  ', INDENT));
  }
  if (entries.length > TEXT_MAX_RESOLVED_LISTED) {
    lines.push(`  and ${entries.length - TEXT_MAX_RESOLVED_LISTED} more resolved`);
  }
  return lines;
}

function historyLines(report: Report, width: number, p: Painter): string[] {
  const text = historyText(report);
  if (!text) return [];
  const lines = wrap(text, width, '', '  ').map((l, i) => (i === 0 ? p.paint('bold', l) : l));
  const fixed = report.fixed ?? [];
  for (const f of fixed.slice(0, TEXT_MAX_RESOLVED_LISTED)) lines.push(...wrap(`fixed: ${fixedText(f)}`, width, '  ', INDENT));
  if (fixed.length > TEXT_MAX_RESOLVED_LISTED) lines.push(`  and ${fixed.length - TEXT_MAX_RESOLVED_LISTED} more fixed`);
  return lines;
}

function orphanPolicy(id: string, f: Finding): PolicyResult {
  return {
    id,
    title: '',
    description: '',
    severity: f.severity,
    resource: f.resource.kind,
    status: 'fail',
    evaluated: 0,
    violations: 0,
    error: null,
    resourceIds: [],
    location: null,
    enforcement: 'hard',
    controls: {},
    tags: [],
  };
}

function statsLine(report: Report): string {
  const s = report.summary;
  const h = report.http;
  const throttled = h.throttled ? `, ${h.throttled} throttled (429, concurrency down to ${h.lowestConcurrency}; ${h.ratePerSecond ?? '?'} req/s)` : '';
  const http = `${plural(h.requests, 'request')}${h.retries || h.failed ? `, ${h.retries} retried, ${h.failed} failed` : ''}${throttled}`;
  const secs = (report.durationMs / 1000).toFixed(1);
  return `${plural(s.resources, 'resource')} · ${plural(s.checks, 'check')} · ${http} · ${secs}s · fail-on ${report.failOn}`;
}

/** The findings under their policies, most severe policy first. */
function policyBlocks(report: Report, width: number, p: Painter): string[] {
  const out: string[] = [];
  const byPolicy = new Map<string, Finding[]>();
  for (const f of report.findings) {
    const list = byPolicy.get(f.policy) ?? [];
    list.push(f);
    byPolicy.set(f.policy, list);
  }
  const known = new Set(report.policies.map((x) => x.id));
  // Findings of a policy missing from `policies` (should not happen) still get printed.
  const orphans = [...byPolicy.keys()].filter((id) => !known.has(id));
  const policies = [
    ...sortPolicies(report.policies),
    ...orphans.map((id) => orphanPolicy(id, byPolicy.get(id)![0])),
  ];
  for (const policy of policies) {
    const findings = (byPolicy.get(policy.id) ?? []).filter((f) => !f.runWide);
    if (findings.length === 0 && errorGroups({ policies: [policy], findings: byPolicy.get(policy.id) ?? [] }).length === 0) continue;
    // Line by line: a spread of one policy's 100,000 findings overflows the call stack.
    for (const line of policyBlock(policy, findings, byPolicy.get(policy.id) ?? [], width, p)) out.push(line);
    out.push('');
  }
  return out;
}

/** `--group-by owner`: the findings under their team or owner, each naming its policy. */
function ownerBlocks(report: Report, width: number, p: Painter): string[] {
  const out: string[] = [];
  for (const g of groupFindings(sortFindings(report.findings.filter((f) => !f.runWide)), report, 'owner')) {
    out.push(`${p.paint('bold', g.title)}  ${p.paint('dim', plural(g.findings.length, 'finding'))}`);
    for (const f of g.findings) {
      if (f.status === 'error') out.push(...entry(MARK.error, 'yellow', `${f.policy} · ${findingSubject(f)}: error: ${f.message}`, locationText(f.location), width, p));
      else for (const line of findingLines(f, width, p, f.policy)) out.push(line);
    }
    out.push('');
  }
  return out;
}

export const formatText: Formatter = (raw: Report, options: FormatOptions) => {
  const report = reportWithVisibleControls(raw);
  const width = Math.max(MIN_WIDTH, options.width ?? TEXT_DEFAULT_WIDTH);
  const p = new Painter(options.color);
  const out: string[] = [
    p.paint('dim', truncate(`steward ${report.tool.version} · ${report.instance}`, width)),
    '',
  ];

  if (options.groupBy === 'owner') {
    for (const line of ownerBlocks(report, width, p)) out.push(line);
  } else if (holdsSeveralInstances(report)) {
    // Several instances: a section each, its verdict in its heading, its policies under it.
    for (const [i, part] of perInstance(report).entries()) {
      const run = report.instances![i]!;
      out.push(p.paint('bold', `instance ${run.name} (${run.url}): ${run.summary.gate}`), '');
      for (const line of policyBlocks(part, width, p)) out.push(line);
    }
  } else {
    if (options.groupBy === 'instance') out.push(p.paint('bold', `instance ${report.instance}`), '');
    for (const line of policyBlocks(report, width, p)) out.push(line);
  }

  const problems = [
    ...attentionLines(report, width, p),
    ...waiverLines(
      'Expired waivers (no longer apply; their findings count again):',
      report.waivers.expired,
      'expired',
      width,
      p,
    ),
    ...waiverLines('Stale waivers (matched no finding):', report.waivers.stale, 'until', width, p),
    ...waiverLines(`${CATCH_ALL_TITLE}:`, report.waivers.catchAll, 'until', width, p),
    ...waiverLines('Waivers ending soon (renew them or fix the findings):', report.waivers.expiring, 'until', width, p),
    ...baselineLines(report, width, p),
    ...historyLines(report, width, p),
    ...overrideLines(report, width),
    ...frameworkLines(report, width),
  ];
  if (problems.length > 0) {
    for (const line of problems) out.push(line);
    out.push('');
  }

  out.push(...wrap(statsLine(report), width, '', '  ').map((l) => p.paint('dim', l)));
  const gate = report.summary.gate;
  const mark = gate === 'pass' ? MARK.pass : MARK.violation;
  const style: Style = gate === 'pass' ? 'green' : gate === 'fail' ? 'red' : 'yellow';
  const verdict = wrap(verdictCounts(report), width, `${mark} `, '  ');
  out.push(
    ...verdict.map((l, i) =>
      i === 0 ? `${p.paint(style, mark)}${p.paint('bold', l.slice(1))}` : p.paint('bold', l),
    ),
  );
  return `${out.join('\n')}\n`;
};
