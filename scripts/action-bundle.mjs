// The GitHub Action bundle: one committed ESM file, dist-action/index.js (action.yml `main`), and
// the licence comments of what it bundles beside it (index.js.LEGAL.txt). build.mjs and
// test/action/check-dist.test.ts both build through this module, so the check compares the
// committed files against a build made with exactly the same options.
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ajvOnUse, onUse } from './on-use.mjs';

/** Repository root: the build never depends on the caller's working directory. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ACTION_ENTRY = 'src/action/index.ts';
export const ACTION_DIR = 'dist-action';
export const ACTION_BUNDLE = 'dist-action/index.js';
/** The files of dist-action/ a build writes (one it no longer writes is removed). */
export const ACTION_OUTPUT = /^index\.js(?:\.LEGAL\.txt)?$/;

// @actions/core imports its OIDC client (`getIDToken`) at the top, and with it @actions/http-client
// and undici, which a runner then read, compiled and initialised at every start. Here it is
// imported at the first `getIDToken`; steward calls none, so the bundle holds none of it (3.9 →
// 3.4 MB; a run of the demo instance on Node 24: ~4 % less CPU and wall time). The build fails
// if core's line changes (a new @actions/core), so the saving cannot quietly go.
const coreOidcOnUse = onUse('core-oidc-on-use', /[\\/]node_modules[\\/]@actions[\\/]core[\\/]lib[\\/]core\.js$/, [
  [
    "import { OidcClient } from './oidc-utils.js';",
    "const OidcClient = { getIDToken: async (audience) => (await import('./oidc-utils.js')).OidcClient.getIDToken(audience) };",
  ],
]);

/** esbuild options of the Action bundle. Output is deterministic: no timestamps, only relative paths. */
export const actionBundleOptions = Object.freeze({
  absWorkingDir: ROOT,
  entryPoints: [ACTION_ENTRY],
  outfile: ACTION_BUNDLE,
  bundle: true,
  // Everything is bundled: the runner executes the files without node_modules.
  packages: 'bundle',
  platform: 'node',
  format: 'esm',
  // node24 runs it; node20 is the syntax both the Action and the dev machines share.
  target: 'node20',
  // A runner starts each job on a fresh machine: Node reads and compiles the whole file every run.
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
  plugins: [coreOidcOnUse, ajvOnUse],
});

/**
 * Builds the bundle: its files' texts by name (`index.js`, `index.js.LEGAL.txt`). With write (the
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
