// The GitHub Action bundle, committed: dist-action/index.js (action.yml `main`), the chunks it
// imports on need beside it (each `import()` of the program is a file of its own), and the
// licence comments of what each file bundles (`<file>.LEGAL.txt`). build.mjs and
// test/action/check-dist.test.ts both build through this module, so the check compares the
// committed files against a build made with exactly the same options.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ajvOnUse, ofetchCreateOnly, onUse } from './on-use.mjs';

/** Repository root: the build never depends on the caller's working directory. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ACTION_ENTRY = 'src/action/index.ts';
export const ACTION_DIR = 'dist-action';
export const ACTION_BUNDLE = 'dist-action/index.js';
/** The files of dist-action/ a build writes: the entry, its chunks and their licence files (one it no longer writes is removed). */
export const ACTION_OUTPUT = /^(?:index|[a-z0-9-]+-[A-Z0-9]{8})\.js(?:\.LEGAL\.txt)?$/;

// @actions/core imports its OIDC client (`getIDToken`) at the top, and with it @actions/http-client
// and undici, which a runner then read, compiled and initialised at every start. Here it is
// required by the first `getIDToken`; steward calls none, so the bundle holds none of it (3.9 →
// 3.4 MB; a run of the demo instance on Node 24: ~4 % less CPU and wall time). A `require`, not
// an `import()`: esbuild makes a chunk of every `import()` it meets, even in code it then drops.
// The build fails if core's line changes (a new @actions/core), so the saving cannot quietly go.
const coreOidcOnUse = onUse('core-oidc-on-use', /[\\/]node_modules[\\/]@actions[\\/]core[\\/]lib[\\/]core\.js$/, [
  [
    "import { OidcClient } from './oidc-utils.js';",
    "const OidcClient = { getIDToken: async (audience) => require('./oidc-utils.js').OidcClient.getIDToken(audience) };",
  ],
]);

/** Where httpByRequire puts node:http: a module of one line that requires it. */
const REQUIRED = 'steward-required-builtin';

// Node 22+ gives node:http getters of its WebSocket classes, from undici, and an ES import of
// node:http makes a namespace of every export, so reads them: the import alone loads undici (~26
// ms of CPU on Node 24, where the Action runs) that no request uses (src/api/wire-headers.ts). Here
// the bundle requires node:http, as the CLI's CommonJS chunks do (the banner's `require`).
const httpByRequire = {
  name: 'http-by-require',
  setup(b) {
    b.onResolve({ filter: /^(?:node:)?http$/ }, (args) => (args.namespace === REQUIRED ? undefined : { path: 'node:http', namespace: REQUIRED }));
    b.onLoad({ filter: /.*/, namespace: REQUIRED }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** esbuild options of the Action bundle. Output is deterministic: no timestamps, only relative paths. */
export const actionBundleOptions = Object.freeze({
  absWorkingDir: ROOT,
  entryPoints: { index: ACTION_ENTRY },
  outdir: ACTION_DIR,
  bundle: true,
  // A runner is a fresh machine: Node reads and compiles what a run imports at every run. Split,
  // a run reads the program (1.6 MB) and what it imports on need (the HTTP client when it sends,
  // the CEL engine, sql.js, pg and Octokit where a run uses them), not all of it (3.4 MB as one
  // file): a run of the demo instance on Node 24 ~4–9 % less CPU, ~12–19 % fewer page faults.
  splitting: true,
  chunkNames: '[name]-[hash]',
  // Everything is bundled: the runner executes the files without node_modules.
  packages: 'bundle',
  platform: 'node',
  format: 'esm',
  // node24 runs it; node20 is the syntax both the Action and the dev machines share.
  target: 'node20',
  // ASCII code (the rest escaped; the licence comments in a file of their own) V8 holds one byte
  // a character, where a single other character makes the whole text two; whitespace goes. With
  // @actions/core's OIDC client on use (above): 5.3 → 3.4 MB, and a run of the demo instance on
  // Node 24 takes ~10 % less CPU and ~11 % less wall time (BENCHMARKS.md, the Action, 23:40 UTC
  // on 2026-11-27).
  charset: 'ascii',
  minifyWhitespace: true,
  legalComments: 'external',
  sourcemap: false,
  logLevel: 'warning',
  // ESM bundles that include CommonJS deps need a require shim.
  banner: {
    js: "import { createRequire as __steward_cr } from 'node:module'; const require = __steward_cr(import.meta.url);",
  },
  plugins: [coreOidcOnUse, ajvOnUse, ofetchCreateOnly, httpByRequire],
});

/**
 * Builds the bundle: its files' texts by name (`index.js`, its chunks, their `.LEGAL.txt`). With write (the
 * default) they are written to dist-action/; with write=false dist-action/ is not touched.
 */
export async function buildActionBundle({ write = true } = {}) {
  const result = await build({ ...actionBundleOptions, write: false });
  const dir = join(ROOT, ACTION_DIR);
  const files = new Map(result.outputFiles.map((file) => [relative(dir, file.path), file.text]));
  if (write) {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) if (ACTION_OUTPUT.test(name) && !files.has(name)) rmSync(join(dir, name));
    for (const [name, text] of files) writeFileSync(join(dir, name), text);
  }
  return files;
}
