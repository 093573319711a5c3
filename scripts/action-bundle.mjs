// The GitHub Action bundle: one committed ESM file, dist-action/index.js (action.yml `main`).
// build.mjs and test/action/check-dist.test.ts both build through this module, so the check
// compares the committed file against a build made with exactly the same options.
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** Repository root: the build never depends on the caller's working directory. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ACTION_ENTRY = 'src/action/index.ts';
export const ACTION_BUNDLE = 'dist-action/index.js';

/** esbuild options of the Action bundle. Output is deterministic: no timestamps, only relative paths. */
export const actionBundleOptions = Object.freeze({
  absWorkingDir: ROOT,
  entryPoints: [ACTION_ENTRY],
  outfile: ACTION_BUNDLE,
  bundle: true,
  // Everything is bundled: the runner executes the file without node_modules.
  packages: 'bundle',
  platform: 'node',
  format: 'esm',
  // node24 runs it; node20 is the syntax both the Action and the dev machines share.
  target: 'node20',
  sourcemap: false,
  minify: false,
  legalComments: 'eof',
  charset: 'utf8',
  logLevel: 'warning',
  // ESM bundles that include CommonJS deps need a require shim.
  banner: {
    js: "import { createRequire as __steward_cr } from 'node:module'; const require = __steward_cr(import.meta.url);",
  },
});

/** Builds the bundle; with write=false returns its text without touching dist-action/. */
export async function buildActionBundle({ write = true } = {}) {
  const result = await build({ ...actionBundleOptions, write });
  return write ? readFile(join(ROOT, ACTION_BUNDLE), 'utf8') : result.outputFiles[0].text;
}
