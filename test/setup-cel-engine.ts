// Test files share modules (vitest.config.ts `isolate: false`), so whether the CEL engine is
// loaded would depend on which file ran first: every file starts with it loaded, and compiles
// synchronously as `steward` does once a run has loaded it. What a start loads without it is
// tested on fresh modules (test/policy/cel-engine-on-need.test.ts) and on the built binary.
import { loadCelEngine } from '../src/policy/cel.js';

await loadCelEngine();
