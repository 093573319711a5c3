// Builds the CLI and library into dist/ (ignored) and the Action into dist-action/ (committed),
// and publishes the JSON Schemas under schema/ from their TypeScript sources (editors use them;
// test/config checks the published copies are up to date).
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, transform } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { ajvOnUseFrom, ofetchCreateOnly, onUse } from './on-use.mjs';

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: false, logLevel: 'warning' };
// ESM bundles that include CommonJS deps need a require shim.
const banner = { js: "import { createRequire as __steward_cr } from 'node:module'; const require = __steward_cr(import.meta.url);" };

/** Writes `text` to `target` unless the file already holds it (committed outputs keep their timestamps). */
const writeIfChanged = (target, text) => {
  if (!existsSync(target) || readFileSync(target, 'utf8') !== text) writeFileSync(target, text);
};

/**
 * `code` with the non-ASCII characters esbuild leaves in comments (a licence's author's name)
 * written as `\u{…}`, inert in a comment: a text all ASCII is a one-byte string in V8, half the
 * memory, and read and hashed without decoding. esbuild escapes every other one; the same code
 * without comments, before and after, proves it.
 */
async function asciiOnly(code, file) {
  const ascii = code.replace(/[^\x00-\x7f]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  if (ascii === code) return code;
  const bare = async (text) => (await transform(text, { minifyWhitespace: true, legalComments: 'none', logLevel: 'silent' })).code;
  if ((await bare(ascii)) !== (await bare(code))) throw new Error(`build: ${file} holds non-ASCII text outside its comments`);
  return ascii;
}

// What the build derives from the sources, from one bundle of them: own schemas compiled ahead of
// time (src/core/own-validators.generated.js, committed like the published schemas below; before
// the bundles that include it) and the built-in pack as parsed (policy/builtin-pack.ts reads it;
// a shipped file that differs from what was parsed here is parsed at run time).
let chunkFile;
let validatorChunks;
{
  const outfile = 'dist/.derived/derived.mjs';
  const contents = [
    "export { ownSchemas } from './src/library/own-schemas.ts';",
    "export { ownSchemaKey } from './src/core/own-validator.ts';",
    "export { ACTION_PACK_FILE, builtinPackJson, BUILTIN_PACK_FILE } from './src/library/builtin-pack.ts';",
    "export { RESOURCE_KINDS } from './src/resources/index.ts';",
    "export { chunkFile } from './src/cli/chunk-loader.ts';",
  ].join('\n');
  await build({ ...common, stdin: { contents, resolveDir: '.', loader: 'ts' }, outfile, packages: 'external' });
  const derived = await import(pathToFileURL(outfile).href);
  ({ chunkFile } = derived);
  const { ownValidatorGroups, ownValidatorsChunks, ownValidatorsModule } = await import('./own-validators.mjs');
  // Compiled once (Ajv's standalone code), written in the library's form and the CLI's.
  const validatorGroups = ownValidatorGroups(derived.ownSchemas(), derived.ownSchemaKey);
  writeIfChanged('src/core/own-validators.generated.js', ownValidatorsModule(validatorGroups));
  validatorChunks = ownValidatorsChunks(validatorGroups);
  const files = readdirSync('policies').filter((f) => /\.ya?ml$/.test(f)).sort().map((name) => ({ name, text: readFileSync(`policies/${name}`, 'utf8') }));
  const pack = await derived.builtinPackJson(files, derived.RESOURCE_KINDS);
  writeFileSync(derived.BUILTIN_PACK_FILE, pack);
  // The Action's copy is committed (test/action/check-dist.test.ts checks it is current).
  writeIfChanged(derived.ACTION_PACK_FILE, pack);
  rmSync('dist/.derived', { recursive: true, force: true });
}
await build({ ...common, entryPoints: { index: 'src/index.ts' }, outdir: 'dist', banner, packages: 'external' });
// The emulated instance, for benchmarks and embedders' tests: not part of the library entry.
await build({ ...common, entryPoints: { sandbox: 'src/sandbox/index.ts' }, outdir: 'dist', banner, packages: 'external' });
// The commit `--version` names: the checkout's HEAD when built in one (only the CLI carries it:
// the committed Action bundle must not change with every commit).
let commit = '';
try {
  commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  // not a git checkout (an unpacked tarball): --version says the version alone
}
// The CLI is the package's `bin`: the entry (dist/cli.js: the shebang, the executable bit, Node's
// built-ins only) answers `--version` alone and loads the program from dist/cli-chunks/.
// The program is split: a command loads its own chunk and what that needs, nothing else. Its
// chunks are CommonJS, loaded by src/cli/chunk-loader.ts with V8's code cache (ES modules have
// none that keeps what a run compiled). esbuild splits only ES modules: it splits, then each
// chunk becomes CommonJS (dynamic imports as requires, the chunk loader serving `./x.cjs`).
// Chunk names carry a hash: the last build's chunks go first, or dist/ grows with every build.
rmSync('dist/cli-chunks', { recursive: true, force: true });
const define = { 'process.env.STEWARD_BUILD_COMMIT': JSON.stringify(commit) };
await build({ ...common, entryPoints: { cli: 'src/cli/index.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' }, define });
chmodSync('dist/cli.js', 0o755);
// Dependencies are bundled into the chunks: Node resolving and compiling ajv's, yaml's and
// protobuf's hundreds of files cost ~110 ms of every `validate` and `check`. Which packages each
// chunk holds is written beside them (test/cli/startup.test.ts reads it).
// fdir (tinyglobby's directory walker) loads its optional picomatch through createRequire in its
// ES build, which esbuild cannot see: every start resolved and compiled picomatch's six files
// from node_modules (~3 ms), beside the copy bundled for tinyglobby. Its CommonJS build requires
// it plainly, so the bundled copy serves both.
const fdirAsCommonJs = {
  name: 'fdir-as-commonjs',
  setup(b) {
    b.onResolve({ filter: /^fdir$/ }, () => ({ path: fileURLToPath(new URL('../node_modules/fdir/dist/index.cjs', import.meta.url)) }));
  },
};
// commander requires node:child_process when it loads, for subcommands that are executables of
// their own (steward has none): that module, and the dgram and net modules it loads, cost ~7 ms
// of every start on Node 24. Here it is required at commander's first spawn.
const commanderChildProcessOnUse = onUse('commander-child-process-on-use', /[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/, [
  [
    "const childProcess = require('node:child_process');",
    "let childProcessModule;\nconst childProcess = { spawn: (...args) => (childProcessModule ??= require('node:child_process')).spawn(...args) };",
  ],
]);
// Code a command may never run goes in chunks of its own, which the loader serves at their first
// require: V8 scans all of a file's text as it compiles it, run or not. The own validators'
// groups (scripts/own-validators.mjs: `check` never reads the fix shapes', `validate` neither
// theirs nor the answers'), and Ajv's compiler, for a schema the build never saw (a plugin's
// kind), with fast-uri ~190 KB that no built-in command compiles with. The chunk `check` and
// `validate` load: 1.29 -> 0.53 MB; a first start of `check --from` ~4 % less CPU on Node 20
// (BENCHMARKS.md, 2026-12-04 02:20 UTC).
const ajvProgram = await build({ ...common, format: 'cjs', stdin: { contents: "module.exports = require('ajv');", resolveDir: '.', loader: 'js' }, metafile: true, write: false });
/** The packages an esbuild output bundles, from its metafile inputs (`dist/cli-chunks/packages.json`). */
const packagesOf = (inputs) => [...new Set(Object.keys(inputs).flatMap((i) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(i)?.[1] ?? []))].sort();
/** Each such chunk's file name -> its CommonJS text and the packages it bundles. */
const chunksOfTheirOwn = new Map([
  ...[...validatorChunks.chunks].map(([name, text]) => [name, { text, packages: [] }]),
  ['ajv.cjs', { text: ajvProgram.outputFiles[0].text, packages: packagesOf(Object.values(ajvProgram.metafile.outputs)[0].inputs) }],
]);
const asChunksOfTheirOwn = {
  name: 'as-chunks-of-their-own',
  setup(b) {
    b.onResolve({ filter: /^\.\/[\w-]+\.cjs$/ }, (args) => (chunksOfTheirOwn.has(args.path.slice(2)) ? { path: args.path, external: true } : undefined));
    b.onLoad({ filter: /[\\/]src[\\/]core[\\/]own-validators\.generated\.js$/ }, () => ({ contents: validatorChunks.module, loader: 'js', resolveDir: 'src/core' }));
  },
};
const program = await build({
  ...common,
  plugins: [fdirAsCommonJs, commanderChildProcessOnUse, ajvOnUseFrom('./ajv.cjs'), asChunksOfTheirOwn, ofetchCreateOnly],
  entryPoints: { main: 'src/cli/main.ts' },
  outdir: 'dist/cli-chunks',
  outExtension: { '.js': '.cjs' },
  splitting: true,
  chunkNames: '[name]-[hash]',
  packages: 'bundle',
  define,
  metafile: true,
  write: false,
});
mkdirSync('dist/cli-chunks', { recursive: true });
const sha256Hex = (text) => createHash('sha256').update(text).digest('hex');
const chunkTexts = [...program.outputFiles.map((file) => [file.path, file.text]), ...[...chunksOfTheirOwn].map(([name, { text }]) => [`dist/cli-chunks/${name}`, text])];
await Promise.all(chunkTexts.map(async ([file, text]) => {
  const cjs = await transform(text, {
    format: 'cjs',
    platform: 'node',
    target: common.target,
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__steward_url' },
    // ES modules are strict code; CommonJS is not unless it says so (a write to a frozen object
    // would be silently dropped, a mistyped name would make a global).
    banner: "'use strict';",
    // Without indentation and comments a third less text (3.0 -> 2.0 MB) for a start to read and
    // V8 to scan (BENCHMARKS.md, start-up on 2026-11-27). Names stay, so stack traces read.
    minifyWhitespace: true,
    logLevel: 'silent',
  });
  if (cjs.warnings.length > 0) throw new Error(`build: ${file} as CommonJS: ${cjs.warnings.map((w) => w.text).join('; ')}`);
  // Wrapped as the chunk loader calls it, under the hash that names its kept code (cli/chunk-loader.ts).
  writeFileSync(file, chunkFile(await asciiOnly(cjs.code, file), sha256Hex));
}));
writeFileSync(
  'dist/cli-chunks/packages.json',
  `${JSON.stringify(
    Object.fromEntries([
      ...Object.entries(program.metafile.outputs).map(([file, out]) => [file.replace(/^dist\/cli-chunks\//, ''), packagesOf(out.inputs)]),
      ...[...chunksOfTheirOwn].map(([name, { packages }]) => [name, packages]),
    ]),
    null,
    2,
  )}\n`,
);

// Type declarations of the library and the sandbox entries (package.json `exports.types`).
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], { stdio: 'inherit' });

// --- JSON Schemas: [source module, exported constant, published file] ---
// Every published schema is written here from its source: a new kind or fix kind needs no
// schema edit (the report's source is src/report/report-schema.ts, checked against real reports).
const SCHEMAS = [
  ['src/library/published-schemas.ts', 'POLICY_SCHEMA', 'schema/policy.schema.json'],
  ['src/report/report-schema.ts', 'REPORT_SCHEMA', 'schema/report.schema.json'],
  ['src/library/notify-payloads.ts', 'NOTIFICATION_SCHEMA', 'schema/notification.schema.json'],
  ['src/library/published-schemas.ts', 'PLAN_SCHEMA', 'schema/plan.schema.json'],
  ['src/config/schema.ts', 'CONFIG_SCHEMA', 'schema/config.schema.json'],
  ['src/engine/waivers.ts', 'waiversFileSchema', 'schema/waivers.schema.json'],
  ['src/engine/baseline.ts', 'baselineFileSchema', 'schema/baseline.schema.json'],
  ['src/resources/manifests.ts', 'queueManifestSchema', 'schema/queue-manifest.schema.json'],
  ['src/resources/manifests.ts', 'dataFileManifestSchema', 'schema/data-file-manifest.schema.json'],
  ['src/resources/manifests.ts', 'pageSharingManifestSchema', 'schema/page-sharing-manifest.schema.json'],
  ['src/resources/manifests.ts', 'cardSharingManifestSchema', 'schema/card-sharing-manifest.schema.json'],
];
mkdirSync('dist/.schemas', { recursive: true });
for (const [source, name, target] of SCHEMAS) {
  if (!existsSync(source)) continue;
  const outfile = `dist/.schemas/${name}.mjs`;
  await build({ ...common, entryPoints: [source], outfile, packages: 'external' });
  const mod = await import(pathToFileURL(outfile).href);
  if (!mod[name]) continue;
  writeIfChanged(target, `${JSON.stringify(mod[name], null, 2)}\n`);
}
rmSync('dist/.schemas', { recursive: true, force: true });

// --- GitHub Action bundle (dist-action/index.js and its licence comments, committed; options shared with test/action/check-dist.test.ts) ---
const { buildActionBundle } = await import('./action-bundle.mjs');
await buildActionBundle();
