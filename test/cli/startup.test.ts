// Start-up: `steward --version` answers from the entry chunk alone (no dependency is loaded);
// other commands load the program on demand. A reader that closes the pipe early is no error.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import type { CliContext } from '../../src/cli/context.js';
import type { CliIo } from '../../src/cli/io.js';
import { tempDir } from './helpers.js';

const CLI = path.resolve('dist/cli.js');

/** An io that keeps what is written (the in-process program of these tests writes nothing). */
const bufferIo = (): CliIo => ({ stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: process.cwd() });

/** The packages each built file holds (dependencies are bundled into the CLI's chunks: scripts/build.mjs). */
const CHUNK_PACKAGES = JSON.parse(readFileSync('dist/cli-chunks/packages.json', 'utf8')) as Record<string, string[]>;

/**
 * The packages a CLI invocation loads: those bundled in the chunks it loads, and any loaded from
 * node_modules (both recorded by a module resolve hook).
 */
function packagesLoaded(args: string[]): string[] {
  const dir = tempDir('steward-startup-');
  const log = path.join(dir, 'loaded.txt');
  writeFileSync(log, '');
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)/.exec(r.url);
  if (m) appendFileSync(${JSON.stringify(log)}, m[1] + '\\n');
  const chunk = /\\/dist\\/(cli\\.js|cli-chunks\\/[^/]+\\.js)$/.exec(r.url);
  if (chunk) appendFileSync(${JSON.stringify(log)}, 'chunk:' + chunk[1] + '\\n');
  return r;
}`,
  );
  writeFileSync(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${path.join(dir, 'hooks.mjs')}`)});\n`);
  const r = spawnSync(process.execPath, ['--import', path.join(dir, 'register.mjs'), CLI, ...args], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const chunks = loaded.filter((l) => l.startsWith('chunk:')).map((l) => l.slice('chunk:'.length));
  // The hook sees the chunks the entry imports; the entry itself is run, not imported.
  expect(chunks.every((c) => c in CHUNK_PACKAGES)).toBe(true);
  const packages = [...CHUNK_PACKAGES['cli.js'], ...chunks.flatMap((c) => CHUNK_PACKAGES[c]), ...loaded.filter((l) => !l.startsWith('chunk:'))];
  return [...new Set(packages)].sort();
}

/**
 * `validate` and `check --from` of the demo, each run with a CommonJS probe that writes
 * `label: <JSON of expression>` on stderr at exit: each command's status and what the probe saw.
 */
function offlineCommandsProbed(label: string, expression: string): { command: string[]; status: number | null; said: unknown }[] {
  const dir = tempDir('steward-startup-');
  const snapshot = path.join(dir, 'demo.json');
  expect(spawnSync(process.execPath, [CLI, 'snapshot', '--sandbox', '--out', snapshot], { encoding: 'utf8' }).status).toBe(0);
  const probe = path.join(dir, 'probe.cjs');
  writeFileSync(probe, `process.on('exit', () => process.stderr.write(${JSON.stringify(`${label}: `)} + JSON.stringify(${expression}) + '\\n'));\n`);
  return [['validate', '-c', 'demo/steward.yaml'], ['check', '-c', 'demo/steward.yaml', '--from', snapshot, '-q', '--format', 'json', '--fail-on', 'none']].map((command) => {
    const r = spawnSync(process.execPath, ['-r', probe, CLI, ...command], { encoding: 'utf8' });
    const line = r.stderr.startsWith(`${label}: `) && r.stderr.endsWith('\n') && r.stderr.indexOf('\n') === r.stderr.length - 1 ? r.stderr.slice(label.length + 2) : null;
    return { command, status: r.status, said: line === null ? r.stderr : JSON.parse(line) };
  });
}

describe('start-up', () => {
  it('--version loads no dependency; list loads the program', () => {
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
    // The version, and the commit the binary was built from (the suite builds in a checkout).
    const commit = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
    expect(spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' }).stdout).toBe(`${version} (commit ${commit})\n`);
    expect(packagesLoaded(['--version'])).toEqual([]);
    expect(packagesLoaded(['list', '--config', 'builtin'])).toEqual(expect.arrayContaining(['commander', 'yaml', 'ajv', '@bufbuild/cel']));
  });

  it('--help and a mistyped command load commander alone; a command loads its module, and a PostgreSQL driver only with such a history', () => {
    expect(packagesLoaded(['--help'])).toEqual(['commander']);
    expect(packagesLoaded(['-q', 'help'])).toEqual(['commander']);
    const r = spawnSync(process.execPath, [CLI, 'chek'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([2, expect.stringContaining("unknown command 'chek'")]);
    expect(r.stderr).toContain('(Did you mean check?)');
    expect(packagesLoaded(['list', '--config', 'builtin'])).not.toContain('pg');
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
    // A command that compiles policies does load them (the same probe sees them).
    expect(packagesLoaded(['validate', '-c', 'demo/steward.yaml'])).toEqual(expect.arrayContaining(['@bufbuild/cel', '@bufbuild/protobuf']));
  });

  it('keeps V8\'s compiled code of the chunks on disk where Node can (22.1+), in steward\'s cache folder, never the shared temporary one', () => {
    const home = tempDir('steward-compile-cache-');
    const tmp = tempDir('steward-compile-cache-tmp-');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: home, TMPDIR: tmp };
    delete env.NODE_COMPILE_CACHE;
    delete env.NODE_DISABLE_COMPILE_CACHE;
    const start = () => spawnSync(process.execPath, [CLI, 'validate', '-c', 'demo/steward.yaml'], { encoding: 'utf8', env });
    expect(start().status).toBe(0);
    const cache = path.join(home, 'steward', 'node-compile-cache');
    expect(existsSync(path.join(tmp, 'node-compile-cache'))).toBe(false);
    if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function') {
      expect(existsSync(cache)).toBe(false);
      return;
    }
    // One entry per file compiled: the entry, the program, its shared chunks and the command's.
    const entries = () => readdirSync(cache, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    const first = entries();
    expect(first).toBeGreaterThanOrEqual(4);
    // The next start reads them: it writes none.
    expect(start().status).toBe(0);
    expect(entries()).toBe(first);
    // Turned off, nothing is written anywhere.
    env.NODE_DISABLE_COMPILE_CACHE = '1';
    env.XDG_CACHE_HOME = tempDir('steward-compile-cache-');
    expect(start().status).toBe(0);
    expect(existsSync(path.join(env.XDG_CACHE_HOME, 'steward'))).toBe(false);
    expect(existsSync(path.join(tmp, 'node-compile-cache'))).toBe(false);
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
    await expect(program.parseAsync(['node', 'steward', 'check', '--fail-on', 'high'])).rejects.toThrow('internal: the check command ran without its module');
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
