// Config values that would misdirect or leak a request are refused at load (exit 2 with a
// position), before any request: scope ids, base URLs, tokens.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.js';
import { inputProblemLines as problemsOf, tempProject } from '../fixtures/input.js';

describe('scope ids', () => {
  it('refuses empty, "." and ".." ids at their position, inline and in list files', () => {
    const dir = tempProject({
      'steward.yaml': `scope:
  datasets: [ds-1, "", ".."]
  cards: { file: cards.txt }
  filesets: { ".": [/a.csv] }
`,
      'cards.txt': '# cards\n101\n.\n',
    });
    expect(problemsOf(() => loadConfig({ cwd: dir, env: {} }))).toEqual([
      'steward.yaml:2:20: scope.datasets: an id cannot be empty',
      'steward.yaml:2:24: scope.datasets: ".." is not an id (it would change the request path)',
      'cards.txt:3:1: scope.cards: "." is not an id (it would change the request path)',
      'steward.yaml:4:15: scope.filesets: "." is not an id (it would change the request path)',
    ]);
  });

  it('accepts ordinary ids', () => {
    const dir = tempProject({ 'steward.yaml': 'scope: { datasets: [ds-1, ".hidden"], cards: [101] }\n' });
    expect(loadConfig({ cwd: dir, env: {} }).scope).toMatchObject({ ids: { datasets: ['ds-1', '.hidden'], cards: ['101'] }, paths: { filesets: {} }, discover: {} });
  });
});

describe('base URLs', () => {
  it.each([
    ['http://', 'instance.baseUrl must be an http(s):// URL, got "http://"'],
    ['https://user:hunter2@acme.example.com', 'instance.baseUrl must not carry credentials'],
    ['https://acme.example.com/?token=abc123', 'instance.baseUrl must not carry a query string'],
    ['https://acme.example.com/#abc123', 'instance.baseUrl must not carry a fragment'],
  ])('refuses %s in the file at its position, never echoing a secret', (url, message) => {
    const dir = tempProject({ 'steward.yaml': `instance:\n  baseUrl: "${url}"\n` });
    const problems = problemsOf(() => loadConfig({ cwd: dir, env: {} }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^steward\\.yaml:2:12: ${message.replace(/[().*?/]/g, '\\$&')}`));
    for (const secret of ['hunter2', 'abc123']) expect(problems[0]).not.toContain(secret);
  });

  it('refuses them from the environment and flags too, naming the variable or flag', () => {
    const dir = tempProject({});
    expect(
      problemsOf(() =>
        loadConfig({
          cwd: dir,
          env: { STEWARD_BASE_URL: 'https://u:secret1@acme.example.com' },
          overrides: { workflowUrl: 'https://api.example.com?key=secret2' },
        }),
      ),
    ).toEqual([
      'STEWARD_BASE_URL: must not carry credentials (user:password@): it would be printed in reports and logs; the token goes in STEWARD_TOKEN',
      '--workflow-url: must not carry a query string: it would be printed in reports, snapshots and plans',
    ]);
  });

  it('accepts a plain URL with a path', () => {
    const dir = tempProject({});
    const config = loadConfig({ cwd: dir, env: { STEWARD_BASE_URL: 'https://acme.example.com/instance/' } });
    expect(config.instance.baseUrl).toBe('https://acme.example.com/instance/');
  });
});

describe('tokens', () => {
  it('refuses a token with whitespace or control characters, naming the variable, never the value', () => {
    const dir = tempProject({});
    const problems = problemsOf(() =>
      loadConfig({ cwd: dir, env: { STEWARD_TOKEN: 'abc def', STEWARD_WORKFLOW_TOKEN: 'wf\u0007tok' } }),
    );
    expect(problems).toEqual([
      'STEWARD_TOKEN: the token contains whitespace or control characters (a stray newline or space when it was pasted?); set it to the token alone',
      'STEWARD_WORKFLOW_TOKEN: the token contains whitespace or control characters (a stray newline or space when it was pasted?); set it to the token alone',
    ]);
  });

  it('accepts a token with surrounding whitespace trimmed (a trailing newline from a file)', () => {
    const dir = tempProject({});
    expect(loadConfig({ cwd: dir, env: { STEWARD_TOKEN: 'tok-123\n' } }).instance.token).toBe('tok-123');
  });
});
