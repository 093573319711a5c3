// What `steward check` does (its flags are check.ts): evaluate, write the reports, explain one
// finding if asked. With --sandbox it is the demo: the run exits 0 when it worked, and says what
// a real run's exit code would be (only with the demo config: `--sandbox --config mine.yaml`
// exits like a real run).
import type { CliContext } from '../context.js';
import { type CliIo, print, warn } from '../io.js';
import { assertWritableOutputs, writeReports, warnEvaluationErrors } from '../report-output.js';
import { refusedAsEmpty, type RunFlags } from '../run-options.js';
import { checkOptionsFrom, withTarget } from '../run-target.js';
import { chosenConfig } from '../config-choice.js';
import { type ConfigSetting, demoConfigPath, displayPath, evaluate, exitCodeFor, explainTarget, resolvedConfig, sendNotifications } from '../../library/index.js';
import { renderExplanation } from './explain-run.js';

/** `--print-config`: the file, then one `setting  origin  value` line each (or one JSON object). */
function renderResolvedConfig(resolved: { file: string | null; settings: ConfigSetting[] }, io: CliIo, json: boolean): string {
  const file = resolved.file ? displayPath(resolved.file, io.cwd) : null;
  if (json) return `${JSON.stringify({ file, settings: resolved.settings }, null, 2)}\n`;
  const rows = [{ setting: 'SETTING', origin: 'FROM', value: 'VALUE' }, ...resolved.settings];
  const width = (k: 'setting' | 'origin') => Math.max(...rows.map((s) => s[k].length));
  const w = { setting: width('setting'), origin: width('origin') };
  const lines = rows.map((s) => `${s.setting.padEnd(w.setting)}  ${s.origin.padEnd(w.origin)}  ${s.value}`);
  return `config: ${file ?? '(none: the built-in pack and every default)'}\n\n${lines.join('\n')}\n`;
}

export async function runCheck(ctx: CliContext, flags: RunFlags & { printConfig?: boolean; notify?: boolean; explain?: { policy: string; resource: string } }): Promise<void> {
  const { io } = ctx;
  if (flags.printConfig) {
    const options = checkOptionsFrom(flags, io);
    const config = flags.sandbox ? (flags.config ?? demoConfigPath()) : chosenConfig(flags, io);
    print(io, renderResolvedConfig(resolvedConfig({ ...options, config }), io, flags.format === 'json'));
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
}
