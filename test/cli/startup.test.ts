// Start-up: `steward --version` answers from the entry alone (no chunk is loaded); other
// commands load the program's chunks on demand, with V8's code cache. A reader that closes the pipe early is no error.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { chunkLoader } from '../../src/cli/chunk-loader.js';
import { ajvClass } from '../../src/core/ajv-class.js';
import type { CliContext } from '../../src/cli/context.js';
import type { CliIo } from '../../src/cli/io.js';
import { demoSnapshot, tempDir } from './helpers.js';

const CLI = path.resolve('dist/cli.js');

/** An io that keeps what is written (the in-process program of these tests writes nothing). */
const bufferIo = (): CliIo => ({ stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: process.cwd() });

/** The packages each chunk holds (dependencies are bundled into the CLI's chunks: scripts/build.mjs). */
const CHUNK_PACKAGES = JSON.parse(readFileSync('dist/cli-chunks/packages.json', 'utf8')) as Record<string, string[]>;

/** A start of the CLI with the chunk loader's log on (NODE_DEBUG=steward): its status, and each chunk loaded and how. */
function chunksLoaded(args: string[], env: NodeJS.ProcessEnv = process.env): { status: number | null; chunks: { name: string; cache: string }[] } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...env, NODE_DEBUG: 'steward' } });
  const chunks = [...r.stderr.matchAll(/^STEWARD \d+: chunk (\S+): code cache (\w+)$/gm)].map(([, name, cache]) => ({ name, cache }));
  return { status: r.status, chunks };
}

/** The packages a CLI invocation loads: those bundled in the chunks it loads. */
function packagesLoaded(args: string[]): string[] {
  const { status, chunks } = chunksLoaded(args);
  expect(status).toBe(0);
  expect(chunks.every((c) => c.name in CHUNK_PACKAGES)).toBe(true);
  return [...new Set(chunks.flatMap((c) => CHUNK_PACKAGES[c.name]))].sort();
}

/**
 * A start of the CLI with a CommonJS probe that runs `setup` first and writes `label: <JSON of
 * expression>` on stderr at exit: its status, stdout, and what the probe saw (else the whole stderr).
 */
function probed(command: string[], label: string, expression: string, setup = ''): { command: string[]; status: number | null; stdout: string; said: unknown } {
  const probe = path.join(tempDir('steward-probe-'), 'probe.cjs');
  writeFileSync(probe, `${setup}\nprocess.on('exit', () => process.stderr.write(${JSON.stringify(`${label}: `)} + JSON.stringify(${expression}) + '\\n'));\n`);
  const r = spawnSync(process.execPath, ['-r', probe, CLI, ...command], { encoding: 'utf8' });
  const line = r.stderr.startsWith(`${label}: `) && r.stderr.endsWith('\n') && r.stderr.indexOf('\n') === r.stderr.length - 1 ? r.stderr.slice(label.length + 2) : null;
  return { command, status: r.status, stdout: r.stdout, said: line === null ? r.stderr : JSON.parse(line) };
}

/** `validate` and `check --from` of the demo, each run with the probe of `probed`. */
function offlineCommandsProbed(label: string, expression: string, setup = ''): ReturnType<typeof probed>[] {
  const snapshot = demoSnapshot();
  return [['validate', '-c', 'demo/steward.yaml'], ['check', '-c', 'demo/steward.yaml', '--from', snapshot, '-q', '--format', 'json', '--fail-on', 'none']].map((command) => probed(command, label, expression, setup));
}

describe('start-up', () => {
  it('--version loads no dependency; list loads the program', () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
    // The version, and the commit the binary was built from (the suite builds in a checkout).
    const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    expect(spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' }).stdout).toBe(`${version} (commit ${commit})\n`);
    expect(chunksLoaded(['--version'])).toEqual({ status: 0, chunks: [] });
    expect(packagesLoaded(['list', '--config', 'builtin'])).toEqual(expect.arrayContaining(['commander', 'yaml', 'ajv']));
  });

  it('--help and a mistyped command load commander alone; a command loads its module, and a PostgreSQL driver only with such a history', () => {
    expect(packagesLoaded(['--help'])).toEqual(['commander']);
    expect(packagesLoaded(['-q', 'help'])).toEqual(['commander']);
    const r = spawnSync(process.execPath, [CLI, 'chek'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([2, expect.stringContaining("unknown command 'chek'")]);
    expect(r.stderr).toContain('(Did you mean check?)');
    expect(packagesLoaded(['list', '--config', 'builtin'])).not.toContain('pg');
  });

  it("a command's own --help, `help <command>` and the completion scripts load commander alone: flags are declared without the command's body", () => {
    const command = (name: string): string[] => (name === 'issues' ? ['issues', 'sync'] : [name]);
    const helps = COMMANDS.map(({ name }) => [...command(name), '--help']);
    for (const args of [...helps, ['help', 'check'], ['completion', 'bash'], ['completion', 'fish']]) {
      expect([args.join(' '), packagesLoaded(args)]).toEqual([args.join(' '), ['commander']]);
    }
    // The help is the command's whole: every flag check declares, as the loaded command shows it.
    const help = spawnSync(process.execPath, [CLI, 'check', '--help'], { encoding: 'utf8' });
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('--format <format> report format on stdout: text|json|sarif|junit|markdown|github|html|csv');
    expect(help.stdout).toContain('--explain <policy:resource>');
    expect(spawnSync(process.execPath, [CLI, 'fix', '--help'], { encoding: 'utf8' }).stdout).toContain('(default 25)');
    // And each command's run still loads what it needs: the body follows the declaration.
    expect(packagesLoaded(['list', '--config', 'builtin'])).toEqual(expect.arrayContaining(['commander', 'yaml', 'ajv']));
  });

  it('a command that sends nothing loads no HTTP client: validate and check --from load neither ofetch nor the proxy agent, nor Node\'s TLS, http (a sandbox\'s server would) or undici', () => {
    // Node's own modules: undici (global fetch, and node:http's ES module facade on Node 22+),
    // TLS (~9 ms of CPU on Node 24), the HTTP stack a sandbox or a client would load.
    const probed = offlineCommandsProbed('network modules', 'process.moduleLoadList.filter((m) => /^NativeModule (undici|tls|https?|zlib)$/.test(m) || m.includes(\'undici\'))');
    for (const { command, status, said } of probed) {
      expect(packagesLoaded(command)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^(ofetch|https-proxy-agent|agent-base|proxy-from-env|debug)$/)]));
      expect([command[0], status, said]).toEqual([command[0], 0, []]);
    }
    // A check against the sandbox sends requests: the client and the wire load then.
    expect(packagesLoaded(['check', '--sandbox', '-q', '--only', 'no-misconfigured-schedules'])).toEqual(expect.arrayContaining(['ofetch', 'https-proxy-agent']));
  });

  it("a live check's requests load no undici (~26 ms of CPU on Node 24): the client's fetch and headers are its own, and the built ofetch is createFetch alone", () => {
    const r = probed(['check', '--sandbox', '-q', '--format', 'json'], 'undici', "process.moduleLoadList.filter((m) => m.includes('undici'))");
    expect([r.status, r.said]).toEqual([0, []]);
    // Every request of the pack was sent and answered through the client (none in error).
    const report = JSON.parse(r.stdout) as { http: { requests: number; failed: number }; summary: { errors: number } };
    expect([report.http.requests > 100, report.http.failed, report.summary.errors]).toEqual([true, 0, 0]);
    // The Node-without-fetch polyfill ofetch's entry imports is in no chunk.
    expect(Object.values(CHUNK_PACKAGES).flat()).not.toContain('node-fetch-native');
  });

  it("commander's node:child_process waits for a spawn steward never asks for: validate and check --from load neither it nor dgram (~7 ms of a start on Node 24)", () => {
    for (const { command, status, said } of offlineCommandsProbed('child process modules', 'process.moduleLoadList.filter((m) => /^NativeModule (child_process|dgram)$/.test(m))')) {
      expect([command[0], status, said]).toEqual([command[0], 0, []]);
    }
  });

  it("the entry takes Node's built-ins as require does: an ES import of node:fs reads every export, fs.promises loading readline and fs/promises at every start", () => {
    // The built entry imports node:module alone (cli/builtins.ts); everything else is required.
    expect([...readFileSync(CLI, 'utf8').matchAll(/^import .* from "(node:[\w/]+)";$/gm)].map(([, id]) => id)).toEqual(['node:module']);
    // Node 20's own ES module loader reads files with fs/promises: from Node 22 on, nothing does.
    if (Number(process.versions.node.split('.')[0]) < 22) return;
    const dir = tempDir('steward-builtins-');
    const probe = path.join(dir, 'probe.cjs');
    writeFileSync(probe, "process.on('exit', () => require('node:fs').writeSync(2, JSON.stringify(process.moduleLoadList.filter((m) => /fs\\/promises|readline|worker_threads/.test(m)))));\n");
    const r = spawnSync(process.execPath, ['-r', probe, CLI, '--version'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '[]']);
  });

  it("input files and a snapshot file are read in place: validate and check --from make no asynchronous file request (the first starts Node's thread pool of four threads; ~7 ms of check --from on Node 24)", () => {
    // Every asynchronous file request (fs callbacks, fs/promises, a read stream's reads) is an
    // async resource FSREQCALLBACK or FSREQPROMISE; Node 20's ES module loader reads the entry
    // with fs/promises before steward runs: its requests, made in node:internal/modules, are not steward's.
    const setup = "globalThis.fileRequests = new Set(); require('node:async_hooks').createHook({ init(id, type) { if (/^FSREQ/.test(type) && !/node:internal\\/modules\\//.test(new Error().stack)) globalThis.fileRequests.add(type); } }).enable();";
    const probed = offlineCommandsProbed('file requests', '[...globalThis.fileRequests]', setup);
    expect(probed.map(({ command, status, said }) => [command[0], status, said])).toEqual([
      ['validate', 0, []],
      ['check', 0, []],
    ]);
  });

  it("durations are read off process.hrtime: validate and check --from load no node:perf_hooks (the global performance's first use loads it and ten more of Node's modules)", () => {
    const probedRuns = offlineCommandsProbed('perf_hooks', "process.moduleLoadList.filter((m) => /^NativeModule (perf_hooks|internal\\/perf\\/performance)$/.test(m))");
    expect(probedRuns.map(({ command, status, said }) => [command[0], status, said])).toEqual([
      ['validate', 0, []],
      ['check', 0, []],
    ]);
    // The report still says how long the run took.
    expect(JSON.parse(probedRuns[1].stdout).durationMs).toEqual(expect.any(Number));
  });

  it('validate and check --from load neither fs/promises nor the readline it brings (~1.4 ms of a start on Node 24)', () => {
    // Node 20's own ES module loader reads files with fs/promises: from Node 22 on, nothing does.
    if (Number(process.versions.node.split('.')[0]) < 22) return;
    const probed = offlineCommandsProbed('fs/promises', "process.moduleLoadList.filter((m) => /^NativeModule (fs\\/promises|internal\\/fs\\/promises|internal\\/readline\\/interface)$/.test(m))");
    expect(probed.map(({ command, status, said }) => [command[0], status, said])).toEqual([
      ['validate', 0, []],
      ['check', 0, []],
    ]);
  });

  it('node:crypto loads at the first digest (~4 ms of a start on Node 24): validate computes none; check --from does, for the fingerprints, and a passing check only for an HTML report (its script\'s hash)', () => {
    const crypto = "process.moduleLoadList.filter((m) => m === 'NativeModule crypto')";
    const probedRuns = offlineCommandsProbed('crypto', crypto);
    expect(probedRuns.map(({ command, status, said }) => [command[0], status, said])).toEqual([
      ['validate', 0, []],
      ['check', 0, ['NativeModule crypto']],
    ]);
    // A policy the demo passes: no finding, no fingerprint.
    const passing = (format: string) => probed(['check', '-c', 'demo/steward.yaml', '--from', demoSnapshot(), '--only', 'card-sharing-matches-manifest', '-q', '--format', format], 'crypto', crypto);
    const json = passing('json');
    expect([json.status, (JSON.parse(json.stdout) as { findings: unknown[] }).findings, json.said]).toEqual([0, [], []]);
    const html = passing('html');
    expect([html.status, /script-src 'sha256-[A-Za-z0-9+/]{43}='/.test(html.stdout), html.said]).toEqual([0, true, ['NativeModule crypto']]);
  });

  it("Ajv's compiler is a chunk of its own, required where a schema was not compiled ahead: the CLI's chunks and the Action's files call ajv's module once (scripts/on-use.mjs), and validate, check --from and fix load no Ajv compiler", () => {
    const calls = (text: string) => [...text.matchAll(/.{0,60}(?:require_ajv\(\)|"\.\/ajv\.cjs"\)).{0,5}/g)].map(([m]) => m);
    const chunks = readdirSync('dist/cli-chunks').filter((f) => f.endsWith('.cjs'));
    const called = chunks.flatMap((f) => calls(readFileSync(path.join('dist/cli-chunks', f), 'utf8')).map((call) => [f, call]));
    expect(called).toEqual([
      ['ajv.cjs', expect.stringMatching(/module\.exports=require_ajv\(\);?$/)],
      [expect.stringMatching(/^chunk-/), expect.stringMatching(/ajvClass=\(\)=>\(0,import_chunk_\w+\.__require\)\("\.\/ajv\.cjs"\)\.Ajv;$/)],
    ]);
    const action = readdirSync('dist-action').filter((f) => f.endsWith('.js'));
    expect(action.flatMap((f) => calls(readFileSync(path.join('dist-action', f), 'utf8')))).toEqual([expect.stringMatching(/ajvClass=\(\)=>require_ajv\(\)\.Ajv;$/)]);
    // What the on-use form reads is the class the library imports; the chunk is Ajv's, and compiles.
    expect(createRequire(import.meta.url)('ajv').Ajv).toBe(ajvClass());
    const { Ajv } = chunkLoader(path.resolve('dist/cli-chunks'), null, 'test').require('ajv.cjs') as { Ajv: typeof import('ajv').Ajv };
    const integer = new Ajv().compile({ type: 'integer' });
    expect([integer(1), integer('1'), integer.errors?.[0]?.message]).toEqual([true, false, 'must be integer']);
    for (const command of [['validate', '-c', 'demo/steward.yaml'], ['check', '-c', 'demo/steward.yaml', '--from', demoSnapshot(), '-q', '--format', 'json', '--fail-on', 'none'], ['fix', '--sandbox', '-q', '--format', 'json']]) {
      const { status, chunks: loaded } = chunksLoaded(command);
      expect([command[0], status, loaded.map((c) => c.name).filter((c) => c === 'ajv.cjs')]).toEqual([command[0], 0, []]);
    }
  });

  it('each group of own validators is a chunk of its own, loaded with the first validator of it a command runs: validate reads no API answer, check --from and a fix plan read no saved plan, showing a saved plan loads its group alone', () => {
    // Nothing kept: a start that recalls a file as valid loads no validator for it (cli/yaml-answers.ts).
    const fresh = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
    const groups = (command: string[]) => {
      const { status, chunks: loaded } = chunksLoaded(command, fresh);
      return [command[0], status, loaded.map((c) => c.name).filter((c) => c.startsWith('validators-')).sort()];
    };
    expect(groups(['validate', '-c', 'demo/steward.yaml'])).toEqual(['validate', 0, ['validators-config.cjs', 'validators-policies.cjs', 'validators-waivers.cjs']]);
    expect(groups(['check', '-c', 'demo/steward.yaml', '--from', demoSnapshot(), '-q', '--format', 'json', '--fail-on', 'none'])).toEqual([
      'check',
      0,
      ['validators-answer.cjs', 'validators-config.cjs', 'validators-policies.cjs', 'validators-waivers.cjs'],
    ]);
    // A plan read back is checked against the plan's schema: showing a saved one loads that group alone.
    const plan = path.join(tempDir('steward-startup-'), 'plan.json');
    expect(groups(['fix', '--sandbox', '-q', '--plan-out', plan, '--format', 'json', '--fail-on', 'none'])).toEqual([
      'fix',
      0,
      ['validators-answer.cjs', 'validators-config.cjs', 'validators-policies.cjs', 'validators-waivers.cjs'],
    ]);
    expect(groups(['fix', '--plan', plan, '-q', '--format', 'json'])).toEqual(['fix', 0, ['validators-fix.cjs']]);
    const shown = spawnSync(process.execPath, [CLI, 'fix', '--plan', plan, '-q', '--format', 'json'], { encoding: 'utf8' });
    expect([shown.status, shown.stdout]).toEqual([0, readFileSync(plan, 'utf8')]);
    const saved = JSON.parse(shown.stdout) as { changes: unknown[] };
    expect(saved.changes.length).toBeGreaterThan(0);
    // A file that is not a plan: the schema's words, at its place.
    writeFileSync(plan, JSON.stringify({ ...saved, changes: 'none' }));
    const refused = spawnSync(process.execPath, [CLI, 'fix', '--plan', plan, '-q'], { encoding: 'utf8' });
    expect([refused.status, refused.stderr]).toEqual([2, expect.stringContaining('not a steward fix plan: /changes must be array')]);
  });

  it('every dependency a command runs is bundled: no file is required from node_modules at run time (fdir\'s ES build required picomatch\'s six files there)', () => {
    // CommonJS loaded through a createRequire does not pass the ES resolve hook: its cache does show it.
    for (const { command, status, said } of offlineCommandsProbed('required', "Object.keys(require.cache).filter((f) => f.includes('node_modules'))")) {
      expect([command[0], status, said]).toEqual([command[0], 0, []]);
    }
  });

  it('a command that compiles no policy loads neither CEL nor protobuf: merge, diff, history', () => {
    const dir = tempDir('steward-startup-');
    const report = path.join(dir, 'report.json');
    const r = spawnSync(process.execPath, [CLI, 'check', '--sandbox', '-q', '--format', 'json', '--fail-on', 'none'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    writeFileSync(report, r.stdout);
    const cel = /^@bufbuild\//;
    for (const command of [['merge', report, '--fail-on', 'none', '--format', 'json'], ['diff', report, report], ['history', '--help']]) {
      const loaded = packagesLoaded(command);
      expect(loaded, command[0]).toContain('commander');
      expect(loaded.filter((p) => cel.test(p)), command[0]).toEqual([]);
    }
  });

  it("a run of the built-in pack alone loads neither CEL's engine nor protobuf (the build keeps the pack's ASTs); a policy of one's own loads them, and so does explain", () => {
    const dir = tempDir('steward-startup-');
    const snapshot = path.join(dir, 'demo.json');
    expect(spawnSync(process.execPath, [CLI, 'snapshot', '--sandbox', '--out', snapshot], { encoding: 'utf8' }).status).toBe(0);
    const engine = (packages: string[]) => packages.filter((p) => /^@bufbuild\/(cel|cel-spec|protobuf)$/.test(p));
    expect(engine(packagesLoaded(['validate', '-c', 'demo/steward.yaml']))).toEqual([]);
    expect(engine(packagesLoaded(['check', '-c', 'demo/steward.yaml', '--from', snapshot, '-q', '--format', 'json', '--fail-on', 'none']))).toEqual([]);
    expect(engine(packagesLoaded(['list', '--config', 'builtin']))).toEqual([]);
    // An expression the pack does not have is parsed by the engine, loaded for it.
    const own = path.join(dir, 'own.yaml');
    writeFileSync(own, 'policies:\n  - id: own-titled\n    title: Schedules have a title\n    severity: low\n    resource: reportSchedule\n    assert: "resource.title.size() > 3"\n    message: "{{ resource.id }} has a short title"\n');
    expect(engine(packagesLoaded(['validate', '--config', 'builtin', '-p', own]))).toEqual(['@bufbuild/cel', '@bufbuild/cel-spec', '@bufbuild/protobuf']);
    const valid = spawnSync(process.execPath, [CLI, 'validate', '--config', 'builtin', '-p', own], { encoding: 'utf8' });
    expect([valid.status, valid.stdout]).toEqual([0, 'valid: 1 policy, 0 card-sharing manifests, 0 queue manifests, 0 data-file manifests, 0 page-sharing manifests, 0 waivers\n']);
    // A syntax error of one's own is still exit 2 at its position, the engine loaded to find it.
    writeFileSync(own, readFileSync(own, 'utf8').replace('size() > 3', 'size() >'));
    const broken = spawnSync(process.execPath, [CLI, 'validate', '--config', 'builtin', '-p', own], { encoding: 'utf8' });
    expect([broken.status, broken.stderr]).toEqual([2, expect.stringMatching(/own\.yaml:6:\d+: .*CEL syntax error/)]);
    // Explaining shows each node's value by the engine's own evaluator.
    const explained = chunksLoaded(['explain', '-c', 'demo/steward.yaml', '--from', snapshot, 'no-misconfigured-schedules', '9001']);
    expect(explained.status).toBe(0);
    expect(engine([...new Set(explained.chunks.flatMap((c) => CHUNK_PACKAGES[c.name]))])).toEqual(['@bufbuild/cel', '@bufbuild/cel-spec', '@bufbuild/protobuf']);
  });

  it('a broken installation (a chunk missing) is exit 3, could not evaluate, with the file named: never 1, never a pass', () => {
    const copy = tempDir('steward-broken-');
    for (const folder of ['dist', 'policies']) cpSync(folder, path.join(copy, folder), { recursive: true });
    writeFileSync(path.join(copy, 'package.json'), readFileSync('package.json'));
    const start = () => spawnSync(process.execPath, [path.join(copy, 'dist/cli.js'), 'validate', '-c', path.resolve('demo/steward.yaml')], { encoding: 'utf8', env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(start().status).toBe(0);
    // The engine's chunk, loaded only for an expression the pack does not have: the pack still validates.
    const engine = readdirSync(path.join(copy, 'dist/cli-chunks')).find((f) => f.startsWith('cel-engine-'))!;
    rmSync(path.join(copy, 'dist/cli-chunks', engine));
    expect(start().status).toBe(0);
    const own = path.join(copy, 'own.yaml');
    writeFileSync(own, 'policies:\n  - id: own-titled\n    title: Schedules have a title\n    severity: low\n    resource: reportSchedule\n    assert: "resource.title.size() > 3"\n    message: short title\n');
    const noEngine = spawnSync(process.execPath, [path.join(copy, 'dist/cli.js'), 'validate', '--config', 'builtin', '-p', own], { encoding: 'utf8' });
    expect([noEngine.status, noEngine.stderr]).toEqual([3, expect.stringContaining(engine)]);
    const command = readdirSync(path.join(copy, 'dist/cli-chunks')).find((f) => f.startsWith('validate-'))!;
    rmSync(path.join(copy, 'dist/cli-chunks', command));
    const noCommand = start();
    expect([noCommand.status, noCommand.stderr]).toEqual([3, expect.stringContaining(command)]);
    rmSync(path.join(copy, 'dist/cli-chunks/main.cjs'));
    const noProgram = start();
    expect([noProgram.status, noProgram.stderr]).toEqual([3, expect.stringMatching(/^steward: could not load the program: .*main\.cjs/)]);
  });

  it('every chunk is strict code, as the ES modules it was built from (CommonJS is not unless it says so)', () => {
    const chunks = readdirSync('dist/cli-chunks').filter((f) => f.endsWith('.cjs'));
    expect(chunks.length).toBeGreaterThan(10);
    // Each as the chunk loader calls it: the hash naming its code, then a function whose body is strict.
    const strict = /^\/\/ steward chunk [0-9a-f]{32}\n\(function \([\w, ]+\) \{'use strict';/;
    expect(chunks.filter((f) => !strict.test(readFileSync(path.join('dist/cli-chunks', f), 'utf8')))).toEqual([]);
    // Each is listed with the packages it holds, and nothing else is.
    expect(Object.keys(CHUNK_PACKAGES).sort()).toEqual(chunks.sort());
  });

  it('keeps V8\'s compiled code of each command\'s chunks in steward\'s cache folder (never the shared temporary one) from its second start, read back by the next', () => {
    const home = tempDir('steward-code-cache-');
    const tmp = tempDir('steward-code-cache-tmp-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: home, TMPDIR: tmp };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const validate = ['validate', '-c', 'demo/steward.yaml'];
    const node = path.join(home, 'steward', 'v8-code', `${process.version}-${process.arch}`);
    // This Node's folder holds one folder per build (named by its entry chunk's key): this one's alone here.
    const builds = () => (existsSync(node) ? readdirSync(node) : []);
    const files = () => builds().flatMap((build) => readdirSync(path.join(node, build))).sort();
    // Bad input (exit 2) ran little of its command: nothing is kept from it.
    expect(chunksLoaded(['validate', '-c', 'demo/no-such.yaml'], env).status).toBe(2);
    expect(files()).toEqual([]);
    // A first start (a fresh machine's only one, as in CI) leaves a marker, no code.
    const first = chunksLoaded(validate, env);
    expect(first.status).toBe(0);
    expect(first.chunks.length).toBeGreaterThanOrEqual(4);
    expect(new Set(first.chunks.map((c) => c.cache))).toEqual(new Set(['miss']));
    expect(files()).toEqual(['validate.started']);
    expect(builds()).toEqual([expect.stringMatching(/^[0-9a-f]{32}-\d+-\d+$/)]);
    const kept = path.join(node, builds()[0]!);
    // The second keeps one file per chunk loaded, named by the chunk and the command. It recalls
    // the files the first read as valid (cli/yaml-answers.ts), so it loads no validator for them.
    const again = chunksLoaded(validate, env);
    expect(first.chunks.filter((c) => c.name.startsWith('validators-')).length).toBeGreaterThanOrEqual(2);
    expect(again).toEqual({ ...first, chunks: first.chunks.filter((c) => !c.name.startsWith('validators-')) });
    const code = () => files().filter((f) => f.endsWith('.bin'));
    expect(code().map((f) => f.split('.').slice(0, 3).join('.'))).toEqual(again.chunks.map((c) => `${c.name}.validate`).sort());
    expect(readdirSync(tmp)).toEqual([]);
    // The next start reads them all, and writes none.
    const before = files().map((f) => [f, statSync(path.join(kept, f)).mtimeMs]);
    const second = chunksLoaded(validate, env);
    expect([second.status, second.chunks]).toEqual([0, again.chunks.map((c) => ({ ...c, cache: 'hit' }))]);
    expect(files().map((f) => [f, statSync(path.join(kept, f)).mtimeMs])).toEqual(before);
    // Another command starts from the code `validate` kept for the chunks they share (and keeps its own from its second start).
    const list = chunksLoaded(['list', '--config', 'builtin'], env);
    const shared = new Set(again.chunks.map((c) => c.name));
    expect(list.status).toBe(0);
    expect(list.chunks.map((c) => [c.name, c.cache])).toEqual(list.chunks.map((c) => [c.name, shared.has(c.name) ? 'shared' : 'miss']));
    expect(list.chunks.filter((c) => c.cache === 'shared').length).toBeGreaterThanOrEqual(3);
    // Turned off (Node's own switch), nothing is written anywhere.
    const off = { ...env, NODE_DISABLE_COMPILE_CACHE: '1', XDG_CACHE_HOME: tempDir('steward-code-cache-') };
    const third = chunksLoaded(validate, off);
    expect([third.status, new Set(third.chunks.map((c) => c.cache))]).toEqual([0, new Set(['off'])]);
    expect(existsSync(path.join(off.XDG_CACHE_HOME as string, 'steward'))).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('--help lists every command the whole program has, in order, each with its own summary', async () => {
    const names = async (args: string[]) => {
      const ctx: CliContext = { io: bufferIo(), exitCode: 0 };
      return (await buildProgram(ctx, ['node', 'steward', ...args])).commands.map((c) => [c.name(), c.description()]);
    };
    const listed = await names(['--help']);
    expect(listed).toEqual(await names(['completion']));
    expect(listed.map(([n]) => n)).toEqual(COMMANDS.map((c) => c.name));
    // `help <command>` and `<command> --help` load that command: its flags are there.
    const check = (await buildProgram({ io: bufferIo(), exitCode: 0 }, ['node', 'steward', 'help', 'check'])).commands.find((c) => c.name() === 'check');
    expect(check?.options.map((o) => o.long)).toContain('--fail-on');
  });

  it('a command listed but not loaded fails closed if it were ever run (never a silent exit 0)', async () => {
    // Built for `--help`: every command is listed, none loaded.
    const program = await buildProgram({ io: bufferIo(), exitCode: 0 }, ['node', 'steward', '--help']);
    await expect(program.parseAsync(['node', 'steward', 'check', '--fail-on', 'high'])).rejects.toThrow('internal: the check command ran without its flags declared');
  });

  it('a reader that closes the pipe early: exit 0, nothing on stderr', async () => {
    const child = spawn(process.execPath, [CLI, 'list', '--config', 'builtin'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });
});
