// The GitHub Action (DESIGN §11): the same engine as `steward check`, reported the way a
// workflow reads it: outputs, job summary, annotations, SARIF/JSON files, and the step's
// status through core.setFailed following the exit codes of DESIGN §9.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import * as core from '@actions/core';
import { blobUrlFromEnv, formatReport, formatReportChunks } from '../report/index.js';
import { emitAnnotations } from './annotations.js';
import { type FixOutcome, fixMarkdown, runFix } from './fix.js';
import { type ActionInputs, readInputs } from './inputs.js';
import { summaryMarkdown, writeSummary } from './summary.js';
import { type CheckOptions, emptyRunProblem, type Evaluation, evaluateInstances, evaluateOn, InputError, type InputProblem, prepareRun, printable, type Report, SecretSet, sendNotifications, syncIssues, withConnection, unwritableProblem, withoutWorkflowCommands, withRunHistory, writeWholeSync } from '../library/index.js';

export interface ActionOutputs {
  violations: string;
  errors: string;
  waived: string;
  gate: 'pass' | 'fail' | 'error';
  'sarif-file': string;
  'report-file': string;
  'html-file': string;
}

export async function run(): Promise<void> {
  // The run's secrets, once: masked in the runner's log before anything else can print them,
  // and redacted from every message, report file, summary and annotation (env fallbacks too).
  const secrets = SecretSet.of(core.getInput('token'), core.getInput('workflow-token'), process.env.STEWARD_TOKEN, process.env.STEWARD_WORKFLOW_TOKEN);
  for (const secret of secrets.values) core.setSecret(secret);
  const outputs: ActionOutputs = { violations: '0', errors: '0', waived: '0', gate: 'error', 'sarif-file': '', 'report-file': '', 'html-file': '' };
  try {
    const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
    // Finding locations are relative to the run's cwd: make it the workspace so annotations
    // land on the repository's files whatever directory the step started in.
    process.chdir(workspace);
    const inputs = readInputs((name) => core.getInput(name), workspace);
    const failure = await runCheck(inputs, outputs, secrets);
    if (failure) core.setFailed(printable(secrets.redact(failure)));
  } catch (error) {
    core.setFailed(printable(secrets.redact(failureMessage(error))));
  } finally {
    for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
  }
}

/** Runs the check (and the fix, if asked); returns why the step fails, or null. */
async function runCheck(inputs: ActionInputs, outputs: ActionOutputs, secrets: SecretSet): Promise<string | null> {
  assertRunnable(inputs, process.env);
  const options: CheckOptions = {
    config: inputs.config,
    cwd: inputs.workspace,
    baseUrl: inputs.baseUrl,
    workflowUrl: inputs.workflowUrl,
    // Passed as options only: never exported to the environment or logged.
    token: inputs.token,
    workflowToken: inputs.workflowToken,
    failOn: inputs.failOn,
    baseline: inputs.baseline,
    overrides: inputs.overrides,
    overridesFrom: 'input override',
    allowEmpty: inputs.allowEmpty,
    // The report files too, so none is another file of the run (the history, the config).
    reportFiles: reportFilesOf(inputs).map(([input, file]) => ({ name: `input ${input}`, file })),
    // Left empty, history (like fail-on) is the config's to decide.
    ...(inputs.history ? { history: inputs.history } : {}),
    ...(inputs.instances.length ? { instances: inputs.instances } : {}),
  };
  const prepared = await prepareRun(options);
  // The config's other secrets (notify: webhook URLs and keys, a history URL) are the run's too, masked in the log.
  for (const secret of prepared.config.secrets.values) {
    if (!secrets.values.includes(secret)) core.setSecret(secret);
  }
  secrets.add(...prepared.config.secrets.values);
  const several = (prepared.config.instances?.length ?? 0) > 1;
  if (several && inputs.fix !== 'none') return 'steward: fix reads and writes one instance: set the instance input to one of the config\'s instances';
  const { report, fix, empty } = await withRunHistory(prepared, async (record) => {
    // Several instances: checked side by side as `steward check` does (no fix: that is one instance's).
    if (several) return finish(await evaluateInstances(options, prepared, record), null);
    return withConnection(options, prepared, async (connection) => {
      const evaluation = await evaluateOn(options, prepared, connection);
      await record(evaluation);
      const fix: FixOutcome | null = inputs.fix === 'none' ? null : await runFix(inputs.fix, evaluation, connection, inputs.workspace);
      return finish(evaluation, fix);
    });
  });
  /** Notifications and warnings of the run; what leaves the runner, redacted. */
  async function finish(evaluation: Evaluation, fix: FixOutcome | null) {
    // The config's notify: channels, as `steward check` sends them (a failed delivery is a warning).
    if (prepared.config.notify.length > 0) {
      const sent = await sendNotifications(evaluation.report, prepared.config.notify, { env: process.env, redact: (t) => secrets.redact(t) });
      evaluation.report.notifications = sent.records;
      evaluation.warnings.push(...sent.warnings);
    }
    // e.g. "policy X checked nothing: scope.datasets is empty": a pass that checked nothing.
    for (const warning of evaluation.warnings) core.warning(printable(secrets.redact(warning)));
    // Report files, the job summary and annotations leave the runner: no secret in any form.
    return { report: secrets.redactJson(evaluation.report), fix, empty: emptyRunProblem(evaluation, 'set the allow-empty input to true') };
  }
  outputs.violations = String(report.summary.violations);
  outputs.errors = String(report.summary.errors);
  outputs.waived = String(report.summary.waived);
  outputs.gate = report.summary.gate;

  // Locations in the summary and the HTML report link to the file at the commit the job checked out.
  const formatOptions = { color: false, cwd: inputs.workspace, blobUrl: blobUrlFromEnv(process.env) };
  if (inputs.sarifFile) {
    writeReportFile(inputs.sarifFile, formatReportChunks('sarif', report, formatOptions));
    outputs['sarif-file'] = inputs.sarifFile;
  }
  if (inputs.jsonFile) {
    writeReportFile(inputs.jsonFile, formatReportChunks('json', report, formatOptions));
    outputs['report-file'] = inputs.jsonFile;
  }
  if (inputs.htmlFile) {
    writeReportFile(inputs.htmlFile, formatReportChunks('html', report, formatOptions));
    outputs['html-file'] = inputs.htmlFile;
  }
  // The step log shows the text report, as `steward check` prints it (text from the instance can
  // carry no workflow command: a line starting `::` would be one).
  core.info(withoutWorkflowCommands(formatReport('text', report, formatOptions)));
  await writeSummary(summaryMarkdown(report, fix ? [fixMarkdown(fix)] : [], undefined, formatOptions));
  emitAnnotations(report);
  const token = process.env.GITHUB_TOKEN;
  const repository = process.env.GITHUB_REPOSITORY;
  if (inputs.issues && token && repository) {
    core.setSecret(token);
    secrets.add(token);
    const synced = await syncIssues(report, { token, secrets, repository, apiUrl: process.env.GITHUB_API_URL || undefined, by: inputs.issuesBy });
    core.info(`issues: opened ${synced.opened.length}, updated ${synced.updated.length}, reopened ${synced.reopened.length}, closed ${synced.closed.length}, ${synced.unchanged.length} unchanged`);
  }

  if (fix?.applied && !fix.applied.ok) {
    return `steward: fix apply stopped (a re-run plans what is left; journal ${fix.journal}):\n${fix.applied.errors.join('\n')}`;
  }
  if (empty && !inputs.allowEmpty) return `steward: ${empty}`;
  return gateFailure(report);
}

/**
 * What the inputs ask for that the run could not finish, found before any request as the CLI's
 * flags are: a report file that cannot be written (a folder, a path through a file), issues
 * without the workflow token or repository. Found after the run, the instance was read for nothing.
 */
function assertRunnable(inputs: ActionInputs, env: NodeJS.ProcessEnv): void {
  const problems: InputProblem[] = reportFilesOf(inputs).flatMap(([input, file]) => unwritableProblem(`input ${input}`, file) ?? []);
  if (inputs.issues && (!env.GITHUB_TOKEN || !env.GITHUB_REPOSITORY)) {
    problems.push({ file: 'input issues', line: 0, column: 0, message: 'true needs GITHUB_TOKEN in the step env (the workflow token, with permissions issues: write) and GITHUB_REPOSITORY' });
  }
  if (problems.length > 0) throw new InputError(problems);
}

/** The report files the inputs name, each with its input. */
function reportFilesOf(inputs: ActionInputs): [input: string, file: string][] {
  const files: [string, string | undefined][] = [['sarif-file', inputs.sarifFile], ['json-file', inputs.jsonFile], ['html-file', inputs.htmlFile]];
  return files.flatMap(([input, file]) => (file ? [[input, file] as [string, string]] : []));
}

/** A report file written piece by piece (the JSON report of a large instance is never one string), whole or not at all. */
function writeReportFile(file: string, chunks: Iterable<string>): void {
  mkdirSync(dirname(file), { recursive: true });
  writeWholeSync(file, chunks);
}

/** Evaluation errors listed in the failure message; the job summary has them all. */
export const GATE_ERROR_LINES = 10;

/** Why the step fails, as `steward check` would exit non-zero (DESIGN §9); null when it passes. */
export function gateFailure(report: Report): string | null {
  const s = report.summary;
  if (s.gate === 'error') {
    // A policy's error already names its first failed read; single findings only when no policy failed as a whole.
    const policyErrors = report.policies.filter((p) => p.error).map((p) => `${p.id}: ${p.error}`);
    const lines =
      policyErrors.length > 0
        ? policyErrors
        : report.findings
            .filter((f) => f.status === 'error')
            .map((f) => `${f.policy} ${f.resource.kind}/${f.resource.id}: ${f.message}`);
    const shown = lines.slice(0, GATE_ERROR_LINES);
    if (lines.length > shown.length) shown.push(`… ${lines.length - shown.length} more in the job summary`);
    return [`steward: could not evaluate everything (${s.errors} errors); the gate fails closed:`, ...shown].join('\n');
  }
  if (s.gate === 'fail') {
    return `steward: ${s.violations} unwaived ${s.violations === 1 ? 'violation' : 'violations'} (fail-on: ${report.failOn}); see the job summary`;
  }
  return null;
}

function failureMessage(error: unknown): string {
  if (error instanceof InputError) return `steward: bad input, nothing was sent to the API:\n${error.message}`;
  if (error instanceof Error) return `steward: ${error.message}`;
  return `steward: ${String(error)}`;
}

