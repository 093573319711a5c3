// The `steward` binary: all logic is in main.ts so tests and the library can run it in-process.
import { run } from './main.js';

run().then((code) => {
  process.exitCode = code;
});
