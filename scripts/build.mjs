// Builds the CLI and library into dist/ (ignored) and the Action into dist-action/ (committed).
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', sourcemap: false, logLevel: 'warning' };
// ESM bundles that include CommonJS deps need a require shim.
const banner = { js: "import { createRequire as __steward_cr } from 'node:module'; const require = __steward_cr(import.meta.url);" };

await build({ ...common, entryPoints: { cli: 'src/cli/index.ts', index: 'src/index.ts' }, outdir: 'dist', banner, packages: 'external' });

// --- GitHub Action bundle (dist-action/index.js, committed; options shared with test/action/check-dist.test.ts) ---
const { buildActionBundle } = await import('./action-bundle.mjs');
await buildActionBundle();
