// action.yml is valid action metadata (GitHub's own parser and schema) and declares exactly the
// inputs, defaults and outputs of DESIGN §11; a workflow using it parses too.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, test } from 'vitest';
import { ACTION_INPUT_DEFAULTS } from '../../src/action/inputs.js';
import { loadWorkflowParser, type WorkflowParser } from './workflow-parser.js';

const ACTION_YML = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8');

let parser: WorkflowParser;
beforeAll(async () => {
  parser = await loadWorkflowParser();
});

function parseActionYml(content: string) {
  const result = parser.parseAction({ name: 'action.yml', content }, parser.trace);
  return { result, errors: result.context.errors.getErrors().map((e) => e.message) };
}

describe('action.yml', () => {
  test('parses against the action schema without errors', () => {
    const { result, errors } = parseActionYml(ACTION_YML);
    expect(errors).toEqual([]);
    const action = parser.convertActionTemplate(result.context, result.value!);
    expect(action.name).toBe('steward policy check');
    expect(action.runs).toEqual({ using: 'node24', main: 'dist-action/index.js' });
    expect(action.branding).toEqual({ icon: 'shield', color: 'blue' });
  });

  test('declares the inputs, defaults and outputs of DESIGN §11', () => {
    const { result } = parseActionYml(ACTION_YML);
    const action = parser.convertActionTemplate(result.context, result.value!);
    const inputs = Object.fromEntries(
      (action.inputs ?? []).map((i) => [i.id, { required: i.required ?? false, default: i.default?.toString() }]),
    );
    expect(inputs).toEqual({
      config: { required: false, default: 'steward.yaml' },
      'base-url': { required: false, default: undefined },
      'workflow-url': { required: false, default: undefined },
      token: { required: false, default: undefined },
      'workflow-token': { required: false, default: undefined },
      'fail-on': { required: false, default: undefined },
      'sarif-file': { required: false, default: undefined },
      'json-file': { required: false, default: undefined },
      'html-file': { required: false, default: undefined },
      history: { required: false, default: undefined },
      baseline: { required: false, default: undefined },
      fix: { required: false, default: 'none' },
      'fix-confirm': { required: false, default: 'false' },
      override: { required: false },
      'allow-empty': { required: false, default: 'false' },
      issues: { required: false, default: 'false' },
      'issues-by': { required: false, default: 'policy' },
      instance: { required: false },
    });
    // The code's fallback defaults (runs outside the runner) equal the declared ones.
    for (const [name, value] of Object.entries(ACTION_INPUT_DEFAULTS)) expect(inputs[name].default).toBe(value);
    expect((action.outputs ?? []).map((o) => o.id)).toEqual([
      'violations',
      'errors',
      'waived',
      'gate',
      'sarif-file',
      'report-file',
      'html-file',
    ]);
    for (const i of action.inputs ?? []) expect(i.description, i.id).toBeTruthy();
  });

  test('the parser does reject a broken action (the check is not vacuous)', () => {
    const { errors } = parseActionYml(ACTION_YML.replace('using: node24', 'using: node99'));
    expect(errors).toEqual([expect.stringContaining("Unexpected value 'node99'")]);
  });

  test('a workflow that uses the action with every input parses', async () => {
    const workflow = `on:
  schedule: [{ cron: '0 6 * * 1' }]
jobs:
  steward:
    runs-on: ubuntu-latest
    permissions: { contents: read, security-events: write }
    steps:
      - uses: actions/checkout@v6
      - id: steward
        uses: ./
        with:
          config: steward.yaml
          base-url: https://acme.example.com
          workflow-url: https://api.example.com
          token: \${{ secrets.STEWARD_TOKEN }}
          workflow-token: \${{ secrets.STEWARD_WORKFLOW_TOKEN }}
          fail-on: high
          sarif-file: steward.sarif
          json-file: steward.json
          baseline: .steward/baseline.json
          fix: plan
          fix-confirm: false
      - if: always()
        uses: github/codeql-action/upload-sarif@v4
        with: { sarif_file: '\${{ steps.steward.outputs.sarif-file }}' }
`;
    const parsed = parser.parseWorkflow({ name: 'steward.yml', content: workflow }, parser.trace);
    expect(parsed.context.errors.getErrors().map((e) => e.message)).toEqual([]);
    const template = await parser.convertWorkflowTemplate(parsed.context, parsed.value!);
    expect(template.errors).toBeUndefined();
    const job = template.jobs[0] as { steps: { uses?: { toString(): string } }[] };
    expect(job.steps.map((s) => s.uses?.toString())).toEqual(['actions/checkout@v6', './', 'github/codeql-action/upload-sarif@v4']);
  });
});
