// `steward history`: the runs of the history file, as a table or a JSON array.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { formatParser } from '../options.js';
import type { HistoryRun } from '../../library/without-policies.js';
import { print } from '../io.js';
import { summaryOf } from './summaries.js';

const COLUMNS = ['run', 'time', 'verdict', 'critical', 'high', 'medium', 'low', 'info', 'new', 'reopened', 'fixed'] as const;

function row(r: HistoryRun): string[] {
  const s = r.bySeverity;
  return [String(r.run), r.startedAt.replace(/\.\d+Z$/, 'Z'), r.gate, ...[s.critical, s.high, s.medium, s.low, s.info, r.new, r.reopened, r.fixed].map(String)];
}

/**
 * Runs as an aligned table, numbers right-aligned, under their instance: a check of several
 * instances records a run each, so the instances' runs interleave; each instance's are listed
 * together, the instances in the order they first appear.
 */
export function renderHistoryTable(all: readonly HistoryRun[]): string {
  if (all.length === 0) return 'no runs recorded yet\n';
  const runs = [...new Set(all.map((r) => r.instance))].flatMap((instance) => all.filter((r) => r.instance === instance));
  const rows = [COLUMNS.map((c) => c.toUpperCase()), ...runs.map(row)];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const out: string[] = [];
  let instance: string | null = null;
  for (const [i, r] of runs.entries()) {
    if (r.instance !== instance) {
      instance = r.instance;
      out.push(`${out.length ? '\n' : ''}instance ${instance}`, line(rows[0]!));
    }
    out.push(line(rows[i + 1]!));
  }
  return `${out.join('\n')}\n`;
}

export function registerHistory(program: Command, ctx: CliContext): void {
  program
    .command('history')
    .description(summaryOf('history'))
    .option('--history <file>', "the history file (default: the config's history, else .steward/history.sqlite beside the config)")
    .option('-c, --config <file>', 'config file naming the history (default: the nearest steward.yaml up to the repository root)')
    .option('-f, --format <format>', 'text|json', formatParser(['text', 'json']), 'text')
    .action(async (flags: { history?: string; config?: string; format: string }) => {
      const { io } = ctx;
      // Loaded here: `steward history --help` loads no command body.
      const { historyRuns } = await import('../../library/without-policies.js');
      const runs = await historyRuns({ history: flags.history, config: flags.config, cwd: io.cwd, env: io.env });
      print(io, flags.format === 'json' ? `${JSON.stringify(runs, null, 2)}\n` : renderHistoryTable(runs));
      ctx.exitCode = 0;
    });
}
