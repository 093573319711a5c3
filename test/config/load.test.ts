import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicyDir, loadConfig } from '../../src/config/index.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { inputProblemLines as problemsOf, tempProject } from '../fixtures/input.js';

const FULL = `instance:
  baseUrl: https://acme.example.com
  workflowUrl: https://api.example.com
policies: [policies/, builtin]
params: { calculated-fields-valid: { maxInvalid: 2 } }
scope:
  datasets: { file: datasets.txt }
  cards: [101, "102", 101]
  filesets: { 3f1c: [/reports/q1.csv] }
manifests:
  queues: permissions/queues/*.yaml
  dataFiles: [permissions/data-files/**/*.yaml]
waivers: waivers.yaml
failOn: high
concurrency: 4
`;

describe('loadConfig', () => {
  const dir = tempProject({
    'conf/steward.yaml': FULL,
    'conf/datasets.txt': 'ds-1\n# a comment\n\nds-2  \n',
    'conf/policies/a.yaml': 'policies: []\n',
    'conf/permissions/queues/b.yaml': 'queue: b\n',
    'conf/permissions/queues/a.yaml': 'queue: a\n',
    'conf/permissions/queues/notes.txt': 'x',
    'conf/permissions/data-files/42.yaml': 'dataFile: 42\n',
    'conf/permissions/data-files/old/43.yaml': 'dataFile: 43\n',
    'conf/waivers.yaml': 'waivers: []\n',
  });
  const conf = path.join(dir, 'conf');

  it('resolves every path relative to the config file, not the cwd', () => {
    const c = loadConfig({ configPath: 'conf/steward.yaml', cwd: dir, env: {} });
    expect(c.file).toBe(path.join(conf, 'steward.yaml'));
    expect(c.policies).toEqual([path.join(conf, 'policies'), builtinPolicyDir()]);
    expect(c.scope).toMatchObject({ ids: { datasets: ['ds-1', 'ds-2'], cards: ['101', '102'] }, paths: { filesets: { '3f1c': ['/reports/q1.csv'] } }, discover: {} });
    expect(c.manifestFiles).toEqual({
      // Every manifests key of the registry; the ones the config leaves out are empty.
      cards: [],
      pages: [],
      queues: [path.join(conf, 'permissions/queues/a.yaml'), path.join(conf, 'permissions/queues/b.yaml')],
      dataFiles: [path.join(conf, 'permissions/data-files/42.yaml'), path.join(conf, 'permissions/data-files/old/43.yaml')],
    });
    expect(c.waiversFile).toBe(path.join(conf, 'waivers.yaml'));
    expect(c.params).toEqual({ 'calculated-fields-valid': { maxInvalid: 2 } });
    expect(c.paramLocations['calculated-fields-valid'].keys.maxInvalid).toEqual({ file: 'conf/steward.yaml', line: 5, column: 38 });
    expect([c.failOn, c.concurrency, c.instance.token]).toEqual(['high', 4, null]);
  });

  it('takes flags over the environment over the file over defaults', () => {
    const env = { STEWARD_BASE_URL: 'https://env.example.com', STEWARD_TOKEN: 'tok-env', STEWARD_WORKFLOW_TOKEN: ' ' };
    const fromEnv = loadConfig({ configPath: 'conf/steward.yaml', cwd: dir, env });
    expect(fromEnv.instance).toEqual({
      baseUrl: 'https://env.example.com',
      workflowUrl: 'https://api.example.com',
      token: 'tok-env',
      workflowToken: null,
      tokenHeader: null,
      tokenId: null,
      tokenWarningDays: 14,
      pageSize: null,
    });
    const fromFlags = loadConfig({
      configPath: 'conf/steward.yaml',
      cwd: dir,
      env,
      overrides: { baseUrl: 'https://flag.example.com', failOn: 'none', concurrency: 2, policies: ['conf/policies/a.yaml'] },
    });
    expect(fromFlags.instance.baseUrl).toBe('https://flag.example.com');
    expect([fromFlags.failOn, fromFlags.concurrency]).toEqual(['none', 2]);
    expect(fromFlags.policies).toEqual([path.join(conf, 'policies/a.yaml')]);
  });

  it('uses defaults without a file: builtin pack, failOn low, concurrency 8', () => {
    const empty = tempProject({});
    const c = loadConfig({ cwd: empty, env: {} });
    expect(c.file).toBeNull();
    expect(c.policies).toEqual([builtinPolicyDir()]);
    expect([c.failOn, c.concurrency, c.waiversFile]).toEqual(['low', 8, null]);
    expect(c.scope).toMatchObject({ ids: { datasets: [], cards: [], queues: [], dataFiles: [], workflows: [] }, paths: { filesets: {} }, discover: {} });
  });

  it('reads ./steward.yaml when present and --config is not given', () => {
    const c = loadConfig({ cwd: conf, env: {} });
    expect(c.file).toBe(path.join(conf, 'steward.yaml'));
  });
});

describe('config errors name file:line:column', () => {
  it('refuses a token key anywhere, pointing at it and at STEWARD_TOKEN', () => {
    const dir = tempProject({ 'steward.yaml': 'instance:\n  baseUrl: https://a.example.com\n  token: abc123\n' });
    const problems = problemsOf(() => loadConfig({ cwd: dir, env: {} }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^steward\.yaml:3:3: "token": tokens never go in steward\.yaml .*STEWARD_TOKEN/);
    expect(problems[0]).not.toContain('abc123');
  });

  it('reports unknown keys at the key, top-level and nested, with what is allowed', () => {
    const dir = tempProject({ 'steward.yaml': 'failOn: low\npolicy: [x]\nscope:\n  dataset: [a]\n' });
    expect(problemsOf(() => loadConfig({ cwd: dir, env: {} }))).toEqual([
      expect.stringMatching(/^steward\.yaml:2:1: unknown key "policy" \(allowed: instance, instances, policies, params/),
      `steward.yaml:4:3: unknown key "dataset" in scope (allowed: ${Object.values(RESOURCE_KINDS).flatMap((k) => (k.inputs.scope ? [k.inputs.scope.key] : [])).join(', ')})`,
    ]);
  });

  it('reports bad values at the value', () => {
    const dir = tempProject({
      'steward.yaml': 'failOn: severe\nconcurrency: 0\nscope:\n  datasets: [a, true]\n  cards: 12\ninstance: { baseUrl: ftp://x }\n',
    });
    expect(problemsOf(() => loadConfig({ cwd: dir, env: {} }))).toEqual([
      'steward.yaml:1:9: failOn must be one of: info, low, medium, high, critical, none',
      'steward.yaml:2:14: concurrency must be >= 1',
      'steward.yaml:4:17: scope.datasets[1] must be string,integer',
      'steward.yaml:5:10: scope.cards must be a list of card ids, { file: path } with one id a line, or `all` (every card the listing gives; `{ all: true, ids: [...], exclude: [...] }` to add and leave out)',
      'steward.yaml:6:22: instance.baseUrl must be an http(s):// URL',
    ]);
  });

  it('words each pattern by what it asks for (a duration, a token id, a header name, days, a URL): not all as a URL', () => {
    const dir = tempProject({
      'steward.yaml': "timeout: 0s\ninstance: { baseUrl: ftp://x, tokenId: abc, tokenHeader: 'X Token' }\nhistory: { path: h.sqlite, keep: 9x }\n",
    });
    expect(problemsOf(() => loadConfig({ cwd: dir, env: {} }))).toEqual([
      'steward.yaml:1:10: timeout must be a whole number of s, m or h (e.g. 90s, 30m, 2h)',
      'steward.yaml:2:22: instance.baseUrl must be an http(s):// URL',
      'steward.yaml:2:40: instance.tokenId must be a whole number: the access-token id, not the token',
      "steward.yaml:2:58: instance.tokenHeader must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)",
      'steward.yaml:3:34: history.keep must be integer',
      'steward.yaml:3:34: history.keep must be a number of days, e.g. 90d',
    ]);
  });

  it("a scope list's shapes are shared definitions: an error inside one is still worded at the list (config scope and an instance's)", () => {
    const dir = tempProject({
      'steward.yaml': 'scope:\n  datasets: { all: true, exclude: [""] }\n  cards: { file: "" }\ninstances:\n  prod:\n    baseUrl: https://a.example\n    token: env:T\n    scope:\n      users: { all: false }\n      roles: [1, {}]\n',
    });
    expect(problemsOf(() => loadConfig({ cwd: dir, env: {} }))).toEqual([
      'steward.yaml:2:36: scope.datasets.exclude[0] must NOT have fewer than 1 characters',
      'steward.yaml:3:18: scope.cards.file must NOT have fewer than 1 characters',
      'steward.yaml:9:21: instances.prod.scope.users.all must be true',
      'steward.yaml:10:18: instances.prod.scope.roles[1] must be string,integer',
    ]);
  });

  it('reports YAML syntax errors and missing referenced files at their position', () => {
    const broken = tempProject({ 'steward.yaml': 'failOn: low\nscope: [unclosed\n' });
    expect(problemsOf(() => loadConfig({ cwd: broken, env: {} }))[0]).toMatch(/^steward\.yaml:\d+:\d+: /);
    const missing = tempProject({
      'steward.yaml': 'scope:\n  datasets: { file: nope.txt }\nwaivers: w.yaml\nmanifests:\n  queues: q/x.yaml\npolicies: [gone/]\n',
    });
    expect(problemsOf(() => loadConfig({ cwd: missing, env: {} }))).toEqual([
      'steward.yaml:6:12: policy path not found: gone',
      'steward.yaml:2:21: file not found: nope.txt',
      'steward.yaml:5:11: manifest path not found: q/x.yaml',
      'steward.yaml:3:10: waivers file not found: w.yaml',
    ]);
  });

  it('names the flag or variable when the bad value came from there', () => {
    const dir = tempProject({});
    expect(problemsOf(() => loadConfig({ cwd: dir, configPath: 'nope.yaml', env: {} }))).toEqual(['--config: config file not found: nope.yaml']);
    expect(
      problemsOf(() => loadConfig({ cwd: dir, env: { STEWARD_BASE_URL: 'acme.example.com' }, overrides: { policies: ['x/'] } })),
    ).toEqual(['STEWARD_BASE_URL: must be an http(s):// URL, got "acme.example.com"', '--policies: not found: x/']);
  });
});
