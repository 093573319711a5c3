// Benchmark 8: steward against the limits of the machine, each a ratio measured in the same run:
// CEL evaluation on fresh documents (compiled, and the reference evaluator) against the same
// predicate written in JavaScript; the client's CPU per request against a bare node:http
// keep-alive request + JSON.parse of the same answers (and a bare fetch beside it);
// `steward --version` and `--help` against a bare `node -e 0`, and the CPU of starting the
// commands that load the program (`--help`, `validate` of the demo, `check --from` a small
// snapshot) against the CPU of `node -e 0`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median, medianMs } from './bench-median.mjs';
import { otherNode, processUsage } from './bench-process.mjs';
import { bareClient, sandboxProcess } from './bench-sandbox.mjs';
import { createClient } from '../dist/index.js';

const EXPRESSION = 'resource.schedule.timezone != "" && (resource.enabled == false || resource.recipientCount > 0)';
const predicate = (r) => r.schedule.timezone !== '' && (r.enabled === false || r.recipientCount > 0);

/** Schedule-like documents as a page brings them: a dozen fields, a nested schedule, 20 recipients. */
function freshDocuments(n) {
  return Array.from({ length: n }, (_, i) =>
    JSON.parse(
      JSON.stringify({
        id: i,
        title: `Schedule ${i}`,
        enabled: i % 3 !== 0,
        recipientCount: i % 5,
        ownerId: 7,
        cardId: 9000 + i,
        owner: true,
        schedule: { timezone: i % 7 ? 'Europe/Berlin' : '', frequency: 'DAILY', daysToRun: '*', hourOfDay: 8, minOfHour: 0, startDate: '2026-01-01', nextRunDate: '2026-12-01' },
        recipients: Array.from({ length: 20 }, (_, r) => ({ id: r, type: 'USER', name: `User ${r}`, email: `u${r}@acme.example` })),
        tags: ['finance', 'monthly'],
        description: 'Sent to the finance leads on the first working day.',
      }),
    ),
  );
}

/** Evaluations a second on fresh documents: CEL compiled to closures, the reference evaluator, plain JS. */
async function celVersusJs(dir, expect) {
  const bundle = path.join(dir, 'cel.mjs');
  await build({ entryPoints: ['src/policy/cel.ts'], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });
  const { compileExpression, loadCelEngine } = await import(pathToFileURL(bundle).href);
  // An expression of the bench's own: the CEL engine parses it (and runs the reference evaluator).
  await loadCelEngine();
  const at = { file: 'bench', line: 1, column: 1 };
  const compiled = compileExpression(EXPRESSION, at, { variables: ['resource'] });
  const reference = compileExpression(EXPRESSION, at, { variables: ['resource'], engine: 'reference' });
  expect(compiled.engine === 'closures', 'limits: the bench expression is not compiled to closures');
  // Warm each up first (the JIT), then time one pass over fresh documents each (a loop over the
  // same ones would measure a hot cache).
  const perSecond = (n, fn) => {
    for (const d of freshDocuments(2_000)) fn(d);
    const docs = freshDocuments(n);
    const t0 = performance.now();
    const out = docs.map(fn);
    return { perS: n / ((performance.now() - t0) / 1000), out };
  };
  const cel = perSecond(200_000, (d) => compiled.evaluate({ resource: d }));
  const ref = perSecond(20_000, (d) => reference.evaluate({ resource: d }));
  const js = perSecond(200_000, predicate);
  const agree = cel.out.every((v, i) => v === js.out[i]) && ref.out.every((v, i) => v === js.out[i]);
  return { celPerS: cel.perS, referencePerS: ref.perS, jsPerS: js.perS, agree };
}

/**
 * CPU milliseconds per request of this process (the sandbox runs in another): steward's client,
 * a bare fetch + JSON.parse, and a bare node:http keep-alive request + JSON.parse (the floor),
 * 2,000 reads at concurrency 8 each; median of 3 rounds after one to warm up.
 */
async function cpuPerRequest() {
  const sandbox = await sandboxProcess({ size: { datasets: 2000, schedules: 0, cards: 0 } });
  const { ids, baseUrl, token } = sandbox;
  const cpu = async (fn) => {
    const c0 = process.cpuUsage();
    await fn();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000 / ids.length;
  };
  const inBatches = async (fn) => {
    for (let i = 0; i < ids.length; i += 8) await Promise.all(ids.slice(i, i + 8).map(fn));
  };
  const url = (id) => `${baseUrl}/api/data/v3/datasources/${encodeURIComponent(id)}/permissions`;
  const headers = { 'X-SERVICE-Developer-Token': token };
  const bare = bareClient(token);
  const rounds = { client: [], fetch: [], http: [] };
  for (let round = 0; round < 4; round++) {
    // A new client each round: its GET memo would answer a second round itself.
    const client = createClient({ baseUrl, token, concurrency: 8 });
    const c = await cpu(() => inBatches((id) => client.getDatasetPermissions(id)));
    const f = await cpu(() => inBatches(async (id) => JSON.parse(await (await fetch(url(id), { headers })).text())));
    const h = await cpu(() => inBatches((id) => bare.getJson(url(id))));
    if (round === 0) continue;
    rounds.client.push(c);
    rounds.fetch.push(f);
    rounds.http.push(h);
  }
  bare.close();
  await sandbox.close();
  return { clientMs: median(rounds.client), fetchMs: median(rounds.fetch), httpMs: median(rounds.http) };
}

/** Median milliseconds of a whole process, started `runs` times. */
const processMs = (runs, file, args) => medianMs(runs, () => execFileSync(file, args, { stdio: 'ignore' }));

/** Each field's own median over several starts (scripts/bench-process.mjs's `processUsage` results). */
const mediansOf = (starts, fields) => Object.fromEntries(fields.map((field) => [field, median(starts.map((u) => u[field]))]));

/**
 * Start-up CPU of `node -e 0` and of the commands of issue 29's rows (and a command's own help),
 * each with its goal, as the process reports it at exit (scripts/bench-process.mjs; wall time on
 * 2 shared cores is noise), with its system part and its page faults. The commands start as a
 * user's starts do, with the code cache a command keeps (src/cli/chunk-loader.ts; two unmeasured
 * starts keep it, in a cache home of the bench's own), and `check --from` and `validate` once
 * more with the cache off (every start as a first one on a fresh machine, as in CI: what
 * `validate` costs then, `check` costs before it evaluates anything). Measured in rounds, one
 * start of each a round (medians of 7): a minute in which the shared machine runs slow falls on
 * a row and its limit alike, not on the rows measured in it alone.
 */
function startupCpu(node, snapshot, cacheHome) {
  const env = { ...process.env, XDG_CACHE_HOME: cacheHome };
  delete env.NODE_DISABLE_COMPILE_CACHE;
  const check = ['check', '-c', 'demo/steward.yaml', '--from', snapshot, '--format', 'json'];
  const validate = ['validate', '-c', 'demo/steward.yaml'];
  const firstStart = { ...env, NODE_DISABLE_COMPILE_CACHE: '1' };
  const commands = [
    ['`steward --help`', ['--help'], 3, env],
    ["`steward check --help` (a command's own help: its flags, not its body)", ['check', '--help'], 3, env],
    ['`steward validate` (the demo config)', validate, 4, env],
    ['`steward check --from` the demo snapshot', check, 4, env],
    ['… the same, code cache off (a first start)', check, 4, firstStart],
    ['… `validate`, code cache off (reading the config on a first start: the floor of the row above)', validate, 4, firstStart],
  ];
  // Two unmeasured starts of each with the cache on: a command keeps its code from its second start.
  for (const [, args, , runEnv] of commands) if (runEnv === env) processUsage(['dist/cli.js', ...args], { runs: 2, node, env });
  const node0 = [];
  const usage = commands.map(() => []);
  for (let round = 0; round < 7; round++) {
    node0.push(processUsage(['-e', '0'], { node }));
    for (const [i, [, args, , runEnv]] of commands.entries()) usage[i].push(processUsage(['dist/cli.js', ...args], { node, env: runEnv }));
  }
  const fields = ['cpuMs', 'sysMs', 'faults'];
  return { node0: mediansOf(node0, fields), rows: commands.map(([what, , goal], i) => ({ what, goal, ...mediansOf(usage[i], fields) })) };
}

/**
 * The Action on the demo instance, as a runner runs it (every start a first one: a runner is a
 * fresh machine): the committed bundle in a workspace holding a copy of demo/, inputs as
 * INPUT_<NAME> variables, against a sandbox in its own process; CPU, wall time and page faults
 * against `node -e 0`, in rounds as the start-up rows (medians of 7).
 */
async function actionRun(dir) {
  const sandbox = await sandboxProcess({ token: 'tok-bench-action', workflowToken: 'wf-bench-action' });
  const workspace = path.join(dir, 'action-workspace');
  cpSync('demo', workspace, { recursive: true });
  const output = path.join(dir, 'action-output');
  const summary = path.join(dir, 'action-summary.md');
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: workspace,
    GITHUB_OUTPUT: output,
    GITHUB_STEP_SUMMARY: summary,
    RUNNER_TEMP: dir,
    INPUT_CONFIG: path.join(workspace, 'steward.yaml'),
    'INPUT_BASE-URL': sandbox.baseUrl,
    'INPUT_WORKFLOW-URL': sandbox.workflowUrl,
    INPUT_TOKEN: sandbox.token,
    'INPUT_WORKFLOW-TOKEN': sandbox.workflowToken,
    'INPUT_FAIL-ON': 'low',
  };
  const runs = { node0: [], action: [] };
  let stdout = '';
  for (let round = 0; round < 7; round++) {
    writeFileSync(output, '');
    writeFileSync(summary, '');
    runs.node0.push(processUsage(['-e', '0']));
    const t0 = performance.now();
    const action = processUsage([path.resolve('dist-action/index.js')], { env });
    runs.action.push({ ...action, wallMs: performance.now() - t0 });
    stdout = action.stdout;
  }
  await sandbox.close();
  return {
    node0: mediansOf(runs.node0, ['cpuMs', 'faults']),
    action: mediansOf(runs.action, ['cpuMs', 'wallMs', 'faults', 'rssMb']),
    failed: /^::error::steward: \d+ unwaived violations/m.test(stdout),
  };
}

export async function benchLimits(print, table, expect) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'steward-bench-limits-'));
  const cel = await celVersusJs(dir, expect);
  expect(cel.agree, 'limits: CEL and the JavaScript predicate disagree');
  const cpu = await cpuPerRequest();
  const node = await processMs(5, process.execPath, ['-e', '0']);
  const version = await processMs(5, process.execPath, ['dist/cli.js', '--version']);
  const help = await processMs(5, process.execPath, ['dist/cli.js', '--help']);
  // CPU of start-up: the demo's snapshot is the small one (46 schedules, every kind).
  const snapshot = path.join(dir, 'demo-snapshot.json');
  execFileSync(process.execPath, ['dist/cli.js', 'snapshot', '--sandbox', '--out', snapshot], { stdio: 'ignore' });
  const other = otherNode();
  const nodes = [{ bin: process.execPath, version: process.version }, ...(other ? [other] : [])];
  const startups = nodes.map((node) => startupCpu(node.bin, snapshot, path.join(dir, 'cache-home')));
  const action = await actionRun(dir);
  expect(action.failed, 'limits: the Action did not fail the demo instance on its planted violations');
  rmSync(dir, { recursive: true, force: true });
  const k = (n) => `${Math.round(n / 1000).toLocaleString('en')} k/s`;
  print('\n### 8. Against the limits (same run)\n');
  print(
    table(
      ['what', 'steward', 'limit', 'ratio'],
      [
        ['CEL evaluations on fresh documents (compiled)', k(cel.celPerS), `${k(cel.jsPerS)} (the predicate in JS)`, `${(cel.jsPerS / cel.celPerS).toFixed(1)}× slower`],
        ['… the reference evaluator, same documents', k(cel.referencePerS), `${k(cel.jsPerS)} (the predicate in JS)`, `${(cel.jsPerS / cel.referencePerS).toFixed(0)}× slower`],
        ['client CPU per request', `${cpu.clientMs.toFixed(3)} ms`, `${cpu.httpMs.toFixed(3)} ms (node:http keep-alive + JSON.parse)`, `${(cpu.clientMs / cpu.httpMs).toFixed(2)}×`],
        ['… a bare fetch, same reads', `${cpu.fetchMs.toFixed(3)} ms`, `${cpu.httpMs.toFixed(3)} ms (node:http keep-alive + JSON.parse)`, `${(cpu.fetchMs / cpu.httpMs).toFixed(2)}×`],
        ['`steward --version`', `${version.toFixed(0)} ms`, `${node.toFixed(0)} ms (node -e 0)`, `${(version / node).toFixed(2)}×`],
        ['`steward --help`', `${help.toFixed(0)} ms`, `${node.toFixed(0)} ms (node -e 0)`, `${(help / node).toFixed(2)}×`],
      ],
    ),
  );
  print('\nStart-up CPU (user + system, median of 7) against `node -e 0` on the same Node, with the goal of issue 29 (the first Node runs the bench; the second is the other one the package is tested on):\n');
  print(
    table(
      ['command', ...startups.flatMap((_, i) => [`${nodes[i].version} CPU ms`, `\`node -e 0\` ms`, 'ratio']), 'goal'],
      startups[0].rows.map(({ what, goal }, r) => [
        what,
        ...startups.flatMap(({ node0, rows }) => [rows[r].cpuMs.toFixed(0), node0.cpuMs.toFixed(0), `${(rows[r].cpuMs / node0.cpuMs).toFixed(2)}× ${rows[r].cpuMs / node0.cpuMs <= goal ? '(met)' : '(not met)'}`]),
        `≤ ${goal}×`,
      ]),
    ),
  );
  // The part of a start that moves with the machine's memory: the kernel's time, most of it
  // serving the page faults of memory touched for the first time (BENCHMARKS.md §10).
  print("\nThe same starts' system CPU (the kernel's part of the CPU above) and minor page faults (pages of memory touched for the first time), medians of 7:\n");
  print(
    table(
      ['process', ...nodes.flatMap(({ version }) => [`${version} CPU ms`, 'system ms', 'page faults'])],
      [{ what: '`node -e 0`' }, ...startups[0].rows].map(({ what }, r) => [
        what,
        ...startups.flatMap(({ node0, rows }) => {
          const u = r === 0 ? node0 : rows[r - 1];
          return [u.cpuMs.toFixed(0), u.sysMs.toFixed(0), u.faults.toLocaleString('en')];
        }),
      ]),
    ),
  );
  print(
    `\nThe Action on the demo instance (${process.version}; a runner's start, every one a first: no code kept), medians of 7 against \`node -e 0\` in the same rounds:\n`,
  );
  print(
    table(
      ['process', 'CPU ms', 'ratio', 'wall ms', 'page faults', 'peak RSS MB'],
      [
        ['`node -e 0`', action.node0.cpuMs.toFixed(0), '1.00×', '', action.node0.faults.toLocaleString('en'), ''],
        ['`node dist-action/index.js`', action.action.cpuMs.toFixed(0), `${(action.action.cpuMs / action.node0.cpuMs).toFixed(2)}×`, action.action.wallMs.toFixed(0), action.action.faults.toLocaleString('en'), action.action.rssMb.toFixed(0)],
      ],
    ),
  );
}
