// The committed Action bundle must equal a fresh build of the sources (DESIGN §11): the runner
// executes dist-action/index.js as committed, so a stale bundle would ship old code.
// `npm test` runs `npm run build` first, which rewrites the working-tree files; so the bundle is
// also compared with the one in the git commit (HEAD), as a check-dist CI job would.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { isBuiltin } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, test } from 'vitest';
import { ACTION_DIR, ACTION_OUTPUT, actionBundleOptions, buildActionBundle, ROOT } from '../../scripts/action-bundle.mjs';
import { ACTION_PACK_FILE, builtinPackJson } from '../../src/library/builtin-pack.js';
import { RESOURCE_KINDS } from '../../src/resources/index.js';
import { spawnProcess } from '../cli/helpers.js';

const STALE = 'dist-action/ is stale: run `npm run build` and commit dist-action/ (index.js, its chunks and their .LEGAL.txt files)';

/** `file` as committed in HEAD, or null outside a git checkout (e.g. an npm tarball). */
function committed(file: string): string | null {
  try {
    return execFileSync('git', ['show', `HEAD:${file}`], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
}

/** The names of dist-action/'s files in HEAD, or null outside a git checkout. */
function committedNames(): string[] | null {
  try {
    const listing = execFileSync('git', ['ls-tree', '--name-only', 'HEAD', `${ACTION_DIR}/`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return listing
      .split('\n')
      .filter(Boolean)
      .map((file) => file.slice(ACTION_DIR.length + 1));
  } catch {
    return null;
  }
}

/** The build's own files among `names` (not the pack beside them). */
const buildFiles = (names: readonly string[]): string[] => names.filter((name) => ACTION_OUTPUT.test(name)).sort();

/** What a file imports, as esbuild parses it: each specifier and whether `import()` asks for it. */
async function importsOf(text: string): Promise<{ path: string; dynamic: boolean }[]> {
  const result = await build({ stdin: { contents: text, loader: 'js' }, bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', external: ['*'], logLevel: 'silent' });
  return Object.values(result.metafile.inputs).flatMap((input) => input.imports.map((i) => ({ path: i.path, dynamic: i.kind === 'dynamic-import' })));
}

let fresh: Map<string, string>;
beforeAll(async () => {
  fresh = await buildActionBundle({ write: false });
});

describe('dist-action/index.js', () => {
  test('the working-tree files equal a fresh build with the options of scripts/action-bundle.mjs', () => {
    expect(buildFiles(readdirSync(join(ROOT, ACTION_DIR))), STALE).toEqual([...fresh.keys()].sort());
    // Every file the build writes is one the build's own pattern names (and so one it can remove).
    expect([...fresh.keys()].filter((name) => !ACTION_OUTPUT.test(name))).toEqual([]);
    expect(fresh.has('index.js')).toBe(true);
    for (const [name, text] of fresh) expect(readFileSync(join(ROOT, ACTION_DIR, name), 'utf8') === text, `${name}: ${STALE}`).toBe(true);
  });

  test('the committed files equal a fresh build', (ctx) => {
    const names = committedNames();
    if (names === null) ctx.skip();
    expect(buildFiles(names ?? []), STALE).toEqual([...fresh.keys()].sort());
    for (const [name, text] of fresh) expect(committed(`${ACTION_DIR}/${name}`) === text, `${name}: ${STALE}`).toBe(true);
  });

  test('is self-contained, deterministic and ASCII', async () => {
    expect(actionBundleOptions).toMatchObject({ bundle: true, packages: 'bundle', platform: 'node', format: 'esm', splitting: true });
    const code = [...fresh].filter(([name]) => name.endsWith('.js'));
    // No import of an installed package survives: only Node built-ins and the bundle's own
    // chunks, but for https-proxy-agent's `import('kerberos')`, tried for a Negotiate proxy and
    // caught (the package is not a dependency).
    const imports = (await Promise.all(code.map(([, text]) => importsOf(text)))).flat();
    // A chunk as the program imports it: `./` and a name the build's pattern gives its files.
    const chunkOf = (path: string) => (path.startsWith('./') && ACTION_OUTPUT.test(path.slice(2)) && path !== './index.js' ? path.slice(2) : null);
    expect(imports.filter(({ path }) => !isBuiltin(path) && chunkOf(path) === null)).toEqual([{ path: 'kerberos', dynamic: true }]);
    // Every chunk imported is one the build wrote, and every chunk written is imported.
    const chunks = new Set(imports.flatMap(({ path }) => chunkOf(path) ?? []));
    expect([...chunks].sort()).toEqual(code.map(([name]) => name).filter((name) => name !== 'index.js').sort());
    for (const [name, text] of code) {
      // No machine-specific absolute paths (the repository root of this checkout).
      expect(text.includes(ROOT), name).toBe(false);
      // V8 holds an ASCII text one byte a character: a single other character, a licence's name
      // in a comment, would make a whole file two. The licences are in the files beside them.
      expect(/^[\x00-\x7f]*$/.test(text), name).toBe(true);
    }
    expect([...fresh].filter(([name]) => name.endsWith('.LEGAL.txt')).some(([, text]) => /MIT License/.test(text))).toBe(true);
    expect(await buildActionBundle({ write: false })).toEqual(fresh);
  });

  test('carries no emulator: none of src/sandbox is in the bundle', () => {
    const bundle = [...fresh.values()].join('\n');
    // Names only the sandbox defines; the library reaches none of it (test/architecture).
    for (const name of ['startSandbox', 'generateState', 'PLANTED_QUEUES', 'FaultInjector', 'steward sandbox listening']) {
      expect(bundle.includes(name), name).toBe(false);
    }
    // The CLI build does start a sandbox (--sandbox): the same check sees the names where they are.
    // (dist/cli.js is split: the program is in its chunks.)
    const chunks = readdirSync(join(ROOT, 'dist/cli-chunks')).map((f) => join(ROOT, 'dist/cli-chunks', f));
    const cli = [join(ROOT, 'dist/cli.js'), ...chunks].map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const name of ['startSandbox', 'generateState', 'PLANTED_QUEUES', 'FaultInjector']) expect(cli.includes(name), name).toBe(true);
  });

  test("holds none of @actions/core's OIDC client, which steward never calls", () => {
    const bundle = [...fresh.values()].join('\n');
    // The client's own text, and undici's (which @actions/http-client imports for it).
    for (const marker of ['ACTIONS_ID_TOKEN_REQUEST_URL', 'undici']) expect(bundle.includes(marker), marker).toBe(false);
  });

  test("holds ofetch's createFetch alone and requires node:http: no fetch polyfill, no ES import of node:http (on Node 22+ that loads undici)", async () => {
    const built = await build({ ...actionBundleOptions, write: false, metafile: true });
    const inputs = Object.values(built.metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs.filter((input) => /node_modules[\\/]node-fetch-native[\\/]/.test(input))).toEqual([]);
    expect(inputs.some((input) => /node_modules[\\/]ofetch[\\/]dist[\\/]shared[\\/]/.test(input))).toBe(true);
    const texts = [...fresh.values()].join('\n');
    expect(texts.match(/\bfrom\s*["'](?:node:)?http["']|\bimport\s*\(\s*["'](?:node:)?http["']\s*\)/g)).toBeNull();
    // The one module that takes it, required (esbuild's `__require`: the banner's `require`).
    expect(texts.match(/\b(?:__)?require\(["']node:http["']\)/g)).toHaveLength(1);
  });

  test('a run starts with the program alone: the CEL engine, sql.js, pg, Octokit and the HTTP client are imported at their first use', async () => {
    const built = await build({ ...actionBundleOptions, write: false, metafile: true });
    const outputs = built.metafile.outputs;
    const entry = `${ACTION_DIR}/index.js`;
    // What Node loads before the program runs: the entry and the chunks it imports statically, transitively.
    const atStart = new Set([entry]);
    for (const file of atStart) for (const i of outputs[file].imports) if (i.kind === 'import-statement' && !isBuiltin(i.path)) atStart.add(i.path);
    const packagesOf = (files: Iterable<string>) => new Set([...files].flatMap((file) => Object.keys(outputs[file].inputs)).flatMap((input) => /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input)?.[1] ?? []));
    const onNeed = ['@bufbuild/cel', '@bufbuild/protobuf', 'sql.js', 'pg', '@octokit/rest', 'ofetch', 'https-proxy-agent'];
    expect(onNeed.filter((name) => packagesOf(atStart).has(name))).toEqual([]);
    // Each is in the bundle, in a chunk of its own reached by `import()`.
    expect(onNeed.filter((name) => !packagesOf(Object.keys(outputs)).has(name))).toEqual([]);
    expect([...atStart].reduce((bytes, file) => bytes + outputs[file].bytes, 0)).toBeLessThan(2_000_000);
  });
});

describe("@actions/core's OIDC client, required by the first getIDToken", () => {
  test('a program that calls no getIDToken bundles none of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'steward-oidc-'));
    try {
      writeFileSync(join(dir, 'probe.mjs'), "import { setOutput } from '@actions/core';\nsetOutput('gate', 'pass');\n");
      const built = await build({ ...actionBundleOptions, entryPoints: { probe: join(dir, 'probe.mjs') }, outdir: join(dir, 'out'), nodePaths: [join(ROOT, 'node_modules')], write: false, metafile: true });
      const inputs = Object.values(built.metafile.outputs).flatMap((output) => Object.keys(output.inputs));
      expect(inputs.some((input) => /@actions[\\/]core[\\/]lib[\\/]core\.js$/.test(input))).toBe(true);
      expect(inputs.filter((input) => /node_modules[\\/](?:@actions[\\/](?:core[\\/]lib[\\/]oidc-utils|http-client)|undici)[\\/]/.test(input))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('getIDToken still asks the runner for a token, with the request token, and answers its value', async () => {
    // A program of its own that calls it, built with the Action's options (the plugin among them), run.
    const dir = mkdtempSync(join(tmpdir(), 'steward-oidc-'));
    const requests: { url?: string; authorization?: string }[] = [];
    const runner = createServer((req, res) => {
      requests.push({ url: req.url, authorization: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ value: 'id-token-from-runner' }));
    });
    await new Promise<void>((resolve) => runner.listen(0, '127.0.0.1', resolve));
    try {
      writeFileSync(join(dir, 'probe.mjs'), "import { writeFileSync } from 'node:fs';\nimport { getIDToken } from '@actions/core';\nwriteFileSync('token.txt', await getIDToken('sts.example'));\n");
      await build({ ...actionBundleOptions, entryPoints: { probe: join(dir, 'probe.mjs') }, outdir: join(dir, 'out'), nodePaths: [join(ROOT, 'node_modules')], write: true });
      const { port } = runner.address() as AddressInfo;
      const run = await spawnProcess(process.execPath, [join(dir, 'out', 'probe.js')], {
        cwd: dir,
        env: { PATH: process.env.PATH, ACTIONS_ID_TOKEN_REQUEST_URL: `http://127.0.0.1:${port}/token?api-version=2.0`, ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'request-token-7f3a' },
      });
      expect(run.stderr).toBe('');
      // @actions/core masks the token (`::add-mask::`) and logs the URL (`::debug::`) on stdout.
      expect(run.stdout).toContain('::add-mask::id-token-from-runner');
      expect(readFileSync(join(dir, 'token.txt'), 'utf8')).toBe('id-token-from-runner');
      expect(requests).toEqual([{ url: '/token?api-version=2.0&audience=sts.example', authorization: 'Bearer request-token-7f3a' }]);
    } finally {
      runner.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('dist-action/builtin-policies.json', () => {
  // The runner gets no dist/: the Action reads the pack the build parsed from this committed copy.
  const shipped = () =>
    readdirSync(join(ROOT, 'policies'))
      .filter((f) => /\.ya?ml$/.test(f))
      .sort()
      .map((name) => ({ name, text: readFileSync(join(ROOT, 'policies', name), 'utf8') }));
  const STALE_PACK = `${ACTION_PACK_FILE} is stale: run \`npm run build\` and commit it`;

  test('the working-tree and the committed file equal the pack a fresh build writes from policies/', async (ctx) => {
    const pack = await builtinPackJson(shipped(), RESOURCE_KINDS);
    expect(readFileSync(join(ROOT, ACTION_PACK_FILE), 'utf8') === pack, STALE_PACK).toBe(true);
    const inHead = committed(ACTION_PACK_FILE);
    if (inHead === null) ctx.skip();
    expect(inHead === pack, STALE_PACK).toBe(true);
  });
});
