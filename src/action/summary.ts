// The job summary (DESIGN §11): the markdown report (verdict, counts by severity, findings
// table) and, when asked, the fix plan; together under GitHub's 1 MiB per-step limit.
import * as core from '@actions/core';
import { type FormatOptions, JOB_SUMMARY_MAX_BYTES, renderMarkdown } from '../report/index.js';
import type { Report } from '../library/index.js';

/** The fix plan gets at most this share of the summary; the findings table keeps the rest. */
export const SUMMARY_PLAN_SHARE = 0.25;

const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Cuts text to at most maxBytes on a line boundary, ending with a note saying so. */
export function truncateLines(text: string, maxBytes: number, note: string): string {
  if (bytes(text) <= maxBytes) return text;
  const tail = `\n_${note}_\n`;
  const out: string[] = [];
  let used = bytes(tail);
  for (const line of text.split('\n')) {
    used += bytes(line) + 1;
    if (used > maxBytes) break;
    out.push(line);
  }
  return out.join('\n') + tail;
}

/** The whole summary, at most maxBytes: the report, then the extra sections (e.g. the fix plan). */
export function summaryMarkdown(report: Report, sections: string[] = [], maxBytes = JOB_SUMMARY_MAX_BYTES, options: FormatOptions = { color: false }): string {
  const extra = sections.map((s) => `\n${s}`).join('');
  const extraText = truncateLines(
    extra,
    Math.floor(maxBytes * SUMMARY_PLAN_SHARE),
    'Fix plan cut to fit the job summary; run `steward fix` for all of it.',
  );
  return renderMarkdown(report, maxBytes - bytes(extraText), options) + extraText;
}

/** Appends to $GITHUB_STEP_SUMMARY; outside a runner (no such variable) it only logs. */
export async function writeSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) {
    core.info('GITHUB_STEP_SUMMARY is not set: no job summary written');
    return;
  }
  await core.summary.addRaw(markdown).write();
}
