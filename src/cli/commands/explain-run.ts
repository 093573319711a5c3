// What `steward explain` does (its flags are explain.ts): explain one policy on one resource, as
// text (renderExplanation, which `check --explain` prints too) or JSON. Loaded when either runs.
import type { CliContext } from '../context.js';
import { fail, print } from '../io.js';
import type { RunFlags } from '../run-options.js';
import { withTarget } from '../run-target.js';
import { type ExplainedExpression, type Explanation, explain } from '../../library/index.js';

/** A value on one line, cut past this many characters. */
const VALUE_CHARS = 100;

function valueText(n: { value?: unknown; error?: string }): string {
  if (n.error !== undefined) return `error: ${n.error}`;
  const text = JSON.stringify(n.value) ?? 'undefined';
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS - 1)}…` : text;
}

function expressionLines(e: ExplainedExpression, indent: string): string[] {
  const lines = [`${indent}${e.field}: ${e.source}`];
  for (const n of e.nodes) {
    const pad = `${indent}  ${'  '.repeat(n.depth)}`;
    lines.push(`${pad}${n.text}  → ${valueText(n)}`);
    if (n.hint) lines.push(`${pad}  ↳ ${n.hint}`);
  }
  return lines;
}

export function renderExplanation(x: Explanation): string {
  const lines = [
    `${x.policy.id} (${x.policy.severity}) on ${x.resource.kind}/${x.resource.id}: ${x.outcome}`,
    `  ${x.policy.title}`,
    `reads: ${x.reads.join(', ') || '(nothing of the resource)'}`,
  ];
  if (x.each) lines.push(...expressionLines(x.each, ''));
  for (const item of x.items) {
    if (item.path) lines.push('', `${item.path}: ${item.outcome}`);
    for (const e of item.expressions) lines.push(...expressionLines(e, item.path ? '  ' : ''));
    if (item.outcome === 'not selected') lines.push(`${item.path ? '  ' : ''}assert: not evaluated (when is not true)`);
  }
  if (x.omittedItems > 0) lines.push('', `… ${x.omittedItems} more items not shown (the failing ones come first)`);
  for (const f of x.findings) lines.push('', `finding: ${f.status}${f.path ? ` ${f.path}` : ''}: ${f.message}`);
  return `${lines.join('\n')}\n`;
}

export async function runExplain(ctx: CliContext, policy: string, resource: string, flags: RunFlags & { format: string }): Promise<void> {
  const x = await withTarget(flags, ctx.io, (options) => explain({ ...options, policy, resource }));
  if ('notFound' in x) {
    fail(ctx.io, `steward explain: ${x.notFound}`);
    ctx.exitCode = 2;
    return;
  }
  print(ctx.io, flags.format === 'json' ? `${JSON.stringify(x, null, 2)}\n` : renderExplanation(x));
  ctx.exitCode = 0;
}
