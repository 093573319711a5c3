// A fix plan as text (what `steward fix` prints) and as JSON (`--plan-out`, `--format json`).
import type { ValidateFunction } from 'ajv';
import { InputError } from '../core/problem.js';
import { readInputFileSync } from '../io/input-file.js';
import { jsonProblem, parseJsonAt } from '../io/json-source.js';
import { describeAlreadyApplied } from './resume.js';
import { PLAN_SCHEMA } from './schema.js';
import type { FixPlan } from './types.js';
import { type OwnSchema, ownValidator } from '../core/own-validator.js';

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
  const byHand = plan.withoutFix ?? 0;
  if (n === 0) out.push('', 'Nothing to change.');
  if (byHand > 0) out.push(`${n === 0 ? '' : '\n'}${byHand} violation${byHand === 1 ? '' : 's'} of policies that name no fix: fixed by hand, as each policy's description says.`);
  if (n > 0 && closing) out.push('', closing);
  return `${out.join('\n')}\n`;
}

export function renderPlanJson(plan: FixPlan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

export const PLAN_VALIDATION: OwnSchema = { schema: PLAN_SCHEMA, options: { allErrors: true, strict: false } };
let compiledPlan: ValidateFunction | undefined;
const planValidator = () => (compiledPlan ??= ownValidator(PLAN_VALIDATION));

/** Parses a plan saved with `--plan-out`; a file that is not a plan is bad input (exit 2). */
export function parsePlan(text: string, file: string): FixPlan {
  const data = parseJsonAt(text, file, 'plan');
  const validatePlan = planValidator();
  if (!validatePlan(data)) {
    // Each problem at the value it concerns (ajv's instance path, e.g. /changes/0/request).
    const problems = (validatePlan.errors ?? []).flatMap((e) => {
      const at = e.instancePath.split('/').slice(1).map((k) => (/^\d+$/.test(k) ? Number(k) : k.replaceAll('~1', '/').replaceAll('~0', '~')));
      return jsonProblem(text, file, at, `not a steward fix plan: ${e.instancePath || '/'} ${e.message ?? ''}`.trim()).problems;
    });
    throw new InputError(problems);
  }
  return data as unknown as FixPlan;
}

export function readPlan(file: string): FixPlan {
  return parsePlan(readInputFileSync(file, file, 'plan'), file);
}
