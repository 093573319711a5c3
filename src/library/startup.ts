// What the CLI needs before it knows which command runs: writing (redacted, printable), the
// version, the words of a failure, how its process compiles sql.js, and its clock for
// durations. Nothing here loads a dependency, so `steward --help` and a mistyped command start
// in tens of milliseconds; index.ts
// re-exports all of it.
export { isApiError } from '../api/errors.js';
export { packageVersion } from '../config/paths.js';
export { monotonicMs } from '../core/monotonic.js';
export { formatProblem, InputError, type InputProblem } from '../core/problem.js';
export { printable, withoutWorkflowCommands } from '../core/printable.js';
export { SecretSet } from '../core/redact.js';
export { compileWasmBaselineOnly } from '../history/wasm-tier.js';
export { type YamlAnswers, type YamlAnswerStore, useYamlAnswers } from '../io/yaml-answers.js';
