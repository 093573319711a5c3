// `steward diff [RUN_A] [RUN_B]`: what changed between two runs (ids from `steward history`, or
// JSON report files); exit 1 when something new or reopened is at or above failOn.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { formatParser, parseFailOn } from '../options.js';
import type { DiffFinding, FailOn, RunDiff } from '../../library/without-policies.js';
import { print } from '../io.js';
import { summaryOf } from './summaries.js';

const line = (mark: string, f: DiffFinding) => `  ${mark} [${f.severity}] ${f.policy} ${f.instance ? `${f.instance}: ` : ''}${f.resource.kind}/${f.resource.id}: ${f.message}`;

export function renderDiffText(diff: RunDiff): string {
  const out = [`${diff.from.label} (${diff.from.startedAt}) → ${diff.to.label} (${diff.to.startedAt})`];
  const section = (title: string, items: string[]) => {
    out.push('', `${title}: ${items.length}`, ...items);
  };
  section('new', diff.new.map((f) => line('+', f)));
  section('reopened', diff.reopened.map((f) => line('+', f)));
  section('fixed', diff.fixed.map((f) => line('-', f)));
  section(
    'changed',
    diff.changed.map(({ before, after }) => `${line('~', after)} (was ${before.status}, ${before.severity}${before.message === after.message ? '' : `: ${before.message}`})`),
  );
  const verdict = diff.failing > 0 ? `${diff.failing} new or reopened violation(s) at or above ${diff.failOn}` : `nothing new at or above ${diff.failOn}`;
  out.push('', verdict);
  return `${out.join('\n')}\n`;
}

export function registerDiff(program: Command, ctx: CliContext): void {
  program
    .command('diff')
    .description(summaryOf('diff'))
    .argument('[from]', 'a run id from `steward history`, or a JSON report file')
    .argument('[to]', 'a run id or a JSON report file (default: the last run)')
    .option('--history <file>', "the history file (default: the config's history, else .steward/history.sqlite beside the config)")
    .option('-c, --config <file>', 'config file naming the history and failOn (default: the nearest steward.yaml up to the repository root)')
    .option('--fail-on <level>', 'lowest severity of a new violation that fails: info|low|medium|high|critical|none', parseFailOn)
    .option('-f, --format <format>', 'text|json', formatParser(['text', 'json']), 'text')
    .action(async (from: string | undefined, to: string | undefined, flags: { history?: string; config?: string; failOn?: FailOn; format: string }) => {
      const { io } = ctx;
      // Loaded here: `steward diff --help` loads no command body.
      const { diffRuns } = await import('../../library/without-policies.js');
      const diff = await diffRuns({ history: flags.history, config: flags.config, cwd: io.cwd, env: io.env, from, to, failOn: flags.failOn });
      print(io, flags.format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : renderDiffText(diff));
      ctx.exitCode = diff.failing > 0 ? 1 : 0;
    });
}
