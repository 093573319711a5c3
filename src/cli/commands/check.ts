// `steward check`: evaluate, report, exit 0/1/2/3 (DESIGN §4, §9). With --sandbox it is the
// demo: the run exits 0 when it worked, and says what a real run's exit code would be (only
// with the demo config: `--sandbox --config mine.yaml` exits like a real run).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { print, warn } from '../io.js';
import { addReportOptions, addRunOptions, refusedAsEmpty, type RunFlags } from '../run-options.js';
import type { ConfigSetting } from '../../library/index.js';
import { renderExplanation } from './explain.js';
import { InvalidArgumentError } from 'commander';
import { summaryOf } from './summaries.js';

/** `--explain POLICY:RESOURCE` (a policy id holds no colon; a resource id may). */
function parseExplainTarget(value: string): { policy: string; resource: string } {
  const at = value.indexOf(':');
  if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError('expected POLICY:RESOURCE, e.g. schedule-timezone-valid:9004.');
  return { policy: value.slice(0, at), resource: value.slice(at + 1) };
}

/** `--print-config`: the file (as displayed), then one `setting  origin  value` line each (or one JSON object). */
function renderResolvedConfig(file: string | null, settings: ConfigSetting[], json: boolean): string {
  if (json) return `${JSON.stringify({ file, settings }, null, 2)}\n`;
  const rows = [{ setting: 'SETTING', origin: 'FROM', value: 'VALUE' }, ...settings];
  const width = (k: 'setting' | 'origin') => Math.max(...rows.map((s) => s[k].length));
  const w = { setting: width('setting'), origin: width('origin') };
  const lines = rows.map((s) => `${s.setting.padEnd(w.setting)}  ${s.origin.padEnd(w.origin)}  ${s.value}`);
  return `config: ${file ?? '(none: the built-in pack and every default)'}\n\n${lines.join('\n')}\n`;
}

export function registerCheck(program: Command, ctx: CliContext): void {
  const cmd = program.command('check').description(summaryOf('check'));
  addRunOptions(cmd);
  addReportOptions(cmd);
  cmd
    .option('--baseline <file>', 'fail only on findings not in this baseline')
    .option('--write-baseline <file>', "record this run's findings as the baseline")
    .option('--history [file]', "record the run in this history and report each finding as new, open or reopened (bare: .steward/history.sqlite beside the config; default: the config's history)")
    .option('--print-config', 'print the resolved config, each setting with where it came from, and exit (no request)')
    .option('--no-notify', "send no notification this run (the config's notify: stays for the next)")
    .option('--explain <policy:resource>', 'after the report, explain this policy on this resource (as `steward explain`)', parseExplainTarget)
    .action(async (flags: RunFlags & { printConfig?: boolean; notify?: boolean; explain?: { policy: string; resource: string } }) => {
      const { io } = ctx;
      // What the run uses loads here: `steward check --help` loads none of it.
      const [{ demoConfigPath, displayPath, evaluate, exitCodeFor, explainTarget, resolvedConfig, sendNotifications }, { checkOptionsFrom, withTarget }, { assertWritableOutputs, writeReports, warnEvaluationErrors }, { chosenConfig }] =
        await Promise.all([import('../../library/index.js'), import('../run-target.js'), import('../report-output.js'), import('../config-choice.js')]);
      if (flags.printConfig) {
        const options = checkOptionsFrom(flags, io);
        const config = flags.sandbox ? (flags.config ?? demoConfigPath()) : chosenConfig(flags, io);
        const resolved = resolvedConfig({ ...options, config });
        print(io, renderResolvedConfig(resolved.file ? displayPath(resolved.file, io.cwd) : null, resolved.settings, flags.format === 'json'));
        ctx.exitCode = 0;
        return;
      }
      assertWritableOutputs(flags.output ?? [], io);
      const target = flags.explain ? explainTarget(flags.explain.policy, flags.explain.resource) : null;
      const evaluation = await withTarget(flags, io, (options) => evaluate({ ...options, ...(target ? { inspect: target.inspect } : {}) }));
      const { report, warnings } = evaluation;
      const { config } = evaluation.prepared;
      if (config.notify.length > 0 && flags.notify !== false) {
        // Before the reports are written, so each carries what became of every message.
        const sent = await sendNotifications(report, config.notify, { env: io.env, redact: (t) => config.secrets.redact(t) });
        report.notifications = sent.records;
        warnings.push(...sent.warnings);
      }
      if (io.stderr.isTTY) io.stderr.write('\r\x1b[2K');
      warn(io, warnings.map((w) => `steward: ${w}`));
      writeReports(report, flags.format ?? 'text', flags.output ?? [], io, flags.groupBy);
      warnEvaluationErrors(report, io);
      if (target) {
        // After a text report on stdout; beside any other format, on stderr (stdout stays one document).
        const x = target.explanation(evaluation);
        const text = 'notFound' in x ? `steward: --explain: ${x.notFound}\n` : `\n${renderExplanation(x)}`;
        if ((flags.format ?? 'text') === 'text' && !('notFound' in x)) print(io, text);
        else io.stderr.write(text);
      }
      // Refused in the report too (gate error, stoppedBy: said above by warnEvaluationErrors), so
      // a merge of it or a reader of its gate never passes a run that checked nothing.
      if (refusedAsEmpty(evaluation.empty, flags)) {
        ctx.exitCode = 2;
        return;
      }
      const code = exitCodeFor(report);
      if (flags.sandbox && !flags.config && code === 1) {
        // The demo (demo config on the demo instance) breaks policies on purpose: the run
        // worked, so npm start succeeds. With the user's own config it is a real run.
        const line = `sandbox demo: these violations are planted (demo/PLANTED.md); a real run would exit 1 (failOn: ${report.failOn}).`;
        if ((flags.format ?? 'text') === 'text') print(io, `\n${line}\n`);
        else warn(io, line);
        ctx.exitCode = 0;
        return;
      }
      ctx.exitCode = code;
    });
}
