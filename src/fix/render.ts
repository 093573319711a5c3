// A fix plan as text (what `steward fix` prints) and as JSON (`--plan-out`, `--format json`).
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { InputError } from '../core/problem.js';
import { describeAlreadyApplied } from './resume.js';
import { PLAN_SCHEMA } from './schema.js';
import type { FixPlan } from './types.js';

/** The closing line when a plan has changes and nothing was sent (the CLI's default). */
export const PLAN_NOT_APPLIED_LINE = 'Nothing was written. Run with --apply to send these requests.';

/** `closing`: the last line when there are changes; null when the caller applies or writes them. */
export function renderPlanText(plan: FixPlan, closing: string | null = PLAN_NOT_APPLIED_LINE): string {
  const out: string[] = [];
  const n = plan.changes.length;
  const done = plan.alreadyApplied ?? [];
  out.push(
    `Fix plan ${plan.id}: ${n} change${n === 1 ? '' : 's'}` +
      (done.length ? `, ${done.length} already applied` : '') +
      (plan.notPlanned.length ? `, ${plan.notPlanned.length} not planned` : ''),
  );
  for (const c of plan.changes) {
    out.push('');
    const where = c.manifest ? ` (${c.manifest.file})` : '';
    out.push(`${c.n}. ${c.resource.kind} ${c.resource.id}${where}: ${c.policies.join(', ')}`);
    out.push(`   ${c.request.method} ${c.request.path}`);
    out.push(`   body: ${JSON.stringify(c.request.body)}`);
    for (const line of c.diff) out.push(`   ${line}`);
    for (const w of c.warnings) out.push(`   warning: ${w}`);
  }
  if (done.length > 0) {
    out.push('', 'Already applied:');
    for (const a of done) {
      const request = `${a.request.method} ${a.request.path}`;
      out.push(`- ${a.resource.kind} ${a.resource.id} (${a.policies.join(', ')}): ${request} — ${describeAlreadyApplied(a)}`);
    }
  }
  if (plan.notPlanned.length > 0) {
    out.push('', 'Not planned:');
    for (const p of plan.notPlanned) {
      out.push(`- ${p.resource.kind} ${p.resource.id} (${p.policies.join(', ')}): ${p.reason}`);
    }
  }
  if (n === 0) out.push('', 'Nothing to change.');
  else if (closing) out.push('', closing);
  return `${out.join('\n')}\n`;
}

export function renderPlanJson(plan: FixPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

const validatePlan = new Ajv({ allErrors: true, strict: false }).compile(PLAN_SCHEMA);

/** Parses a plan saved with `--plan-out`; a file that is not a plan is bad input (exit 2). */
export function parsePlan(text: string, file: string): FixPlan {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new InputError([{ file, line: 0, column: 0, message: `not JSON: ${(err as Error).message}` }]);
  }
  if (!validatePlan(data)) {
    const problems = (validatePlan.errors ?? []).map((e) => ({
      file,
      line: 0,
      column: 0,
      message: `not a steward fix plan: ${e.instancePath || '/'} ${e.message ?? ''}`.trim(),
    }));
    throw new InputError(problems);
  }
  return data as unknown as FixPlan;
}

export function readPlan(file: string): FixPlan {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError([{ file, line: 0, column: 0, message: `cannot read plan: ${(err as Error).message}` }]);
  }
  return parsePlan(text, file);
}
