// The Action's inputs (DESIGN §11), read and validated before anything is sent to the API.
// The runner fills action.yml defaults itself; ACTION_INPUT_DEFAULTS repeats them so a run
// without the runner (tests, `node dist-action/index.js`) behaves the same.
import { isAbsolute, resolve } from 'node:path';
import { type FailOn, InputError, type InputProblem, isDatabaseUrl, type Override, parseOverride, SEVERITIES } from '../library/index.js';

export const FIX_MODES = ['none', 'plan', 'apply'] as const;
export type FixMode = (typeof FIX_MODES)[number];

/**
 * Defaults as declared in action.yml (test/action/action-yml.test.ts keeps them equal). An input
 * with a config twin (fail-on, history, base-url, workflow-url, baseline) has none: left empty,
 * the config decides.
 */
export const ACTION_INPUT_DEFAULTS = {
  config: 'steward.yaml',
  fix: 'none',
  'fix-confirm': 'false',
  'allow-empty': 'false',
  issues: 'false',
  'issues-by': 'policy',
} as const;

export interface ActionInputs {
  workspace: string;
  /** Absolute paths, resolved against the workspace. */
  config: string;
  baseline: string | undefined;
  sarifFile: string | undefined;
  jsonFile: string | undefined;
  /** The self-contained HTML report. */
  htmlFile: string | undefined;
  /** The run history file (restore it from a cache before the step, save it after). */
  history: string | undefined;
  baseUrl: string | undefined;
  workflowUrl: string | undefined;
  token: string | undefined;
  workflowToken: string | undefined;
  /** undefined: the config's failOn decides. */
  failOn: FailOn | undefined;
  fix: FixMode;
  fixConfirm: boolean;
  /** A run that evaluated nothing passes instead of failing the step. */
  allowEmpty: boolean;
  /** Keep the repository's `steward` issues in sync with the run. */
  issues: boolean;
  /** One issue per failing policy, or per team of the config's owners: map. */
  issuesBy: 'policy' | 'team';
  /** The config's `instances:` to check (empty: all). */
  instances: string[];
  /** Soft policies overridden for this run: one `POLICY=reason` per line of the `override` input. */
  overrides: Override[];
}

/** Reads one input as the runner passes it (trimmed, '' when unset). */
export type InputReader = (name: string) => string;

const BOOLEAN_TRUE = ['true', 'True', 'TRUE'];
const BOOLEAN_FALSE = ['false', 'False', 'FALSE'];

/** Problems name the input as the file, `input fail-on: …`, the way the CLI names a flag. */
function problem(input: string, message: string): InputProblem {
  return { file: `input ${input}`, line: 0, column: 0, message };
}

export function readInputs(read: InputReader, workspace: string): ActionInputs {
  const problems: InputProblem[] = [];
  const get = (name: string): string | undefined => {
    const value = read(name);
    if (value !== '') return value;
    return (ACTION_INPUT_DEFAULTS as Record<string, string>)[name];
  };
  const path = (name: string): string | undefined => {
    const value = get(name);
    return value === undefined ? undefined : isAbsolute(value) ? value : resolve(workspace, value);
  };

  const failOn = get('fail-on');
  if (failOn !== undefined && failOn !== 'none' && !(SEVERITIES as readonly string[]).includes(failOn)) {
    problems.push(problem('fail-on', `must be one of ${[...SEVERITIES, 'none'].join(', ')}; got "${failOn}"`));
  }
  const fix = get('fix')!;
  if (!(FIX_MODES as readonly string[]).includes(fix)) {
    problems.push(problem('fix', `must be one of ${FIX_MODES.join(', ')}; got "${fix}"`));
  }
  const boolean = (name: string): boolean => {
    const value = get(name)!;
    if (!BOOLEAN_TRUE.includes(value) && !BOOLEAN_FALSE.includes(value)) {
      problems.push(problem(name, `must be true or false; got "${value}"`));
    }
    return BOOLEAN_TRUE.includes(value);
  };
  const fixConfirm = boolean('fix-confirm');
  const allowEmpty = boolean('allow-empty');
  const issues = boolean('issues');
  const issuesBy = get('issues-by')!;
  if (issuesBy !== 'policy' && issuesBy !== 'team') problems.push(problem('issues-by', `must be policy or team; got "${issuesBy}"`));
  if (fix === 'apply' && !fixConfirm) {
    problems.push(
      problem('fix', 'apply writes permissions to the instance: set fix-confirm: true to allow it (nothing was sent)'),
    );
  }
  if (problems.length > 0) throw new InputError(problems);

  return {
    workspace,
    config: path('config')!,
    baseline: path('baseline'),
    sarifFile: path('sarif-file'),
    jsonFile: path('json-file'),
    htmlFile: path('html-file'),
    // A database URL (from a secret) is the history itself, not a path in the workspace.
    history: isDatabaseUrl(get('history') ?? '') ? get('history') : path('history'),
    baseUrl: get('base-url'),
    workflowUrl: get('workflow-url'),
    token: get('token'),
    workflowToken: get('workflow-token'),
    failOn: failOn as FailOn | undefined,
    fix: fix as FixMode,
    fixConfirm,
    allowEmpty,
    issues,
    issuesBy: issuesBy as 'policy' | 'team',
    instances: (get('instance') ?? '').split(/[\s,]+/).filter(Boolean),
    overrides: (get('override') ?? '')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(parseOverride),
  };
}
