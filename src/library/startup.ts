// What the CLI needs before it knows which command runs, and to declare a command's flags:
// writing (redacted, printable), the version, the words of a failure, how its process compiles
// sql.js, its clock for durations, and the values a flag names (severities, fix's change limit). Nothing here loads a
// dependency, so `steward --help`, a command's `--help` and a mistyped command start in tens of
// milliseconds; index.ts re-exports all of it.
export { isApiError } from '../api/errors.js';
export { packageVersion } from '../config/paths.js';
export { type FailOn, SEVERITIES, type Severity } from '../core/model.js';
export { monotonicMs } from '../core/monotonic.js';
export { MAX_CHANGES_DEFAULT } from '../fix/change-limit.js';
export { formatProblem, InputError, type InputProblem } from '../core/problem.js';
export { printable, withoutWorkflowCommands } from '../core/printable.js';
export { SecretSet } from '../core/redact.js';
export { compileWasmBaselineOnly } from '../history/wasm-tier.js';
export { type YamlAnswers, type YamlAnswerStore, useYamlAnswers } from '../io/yaml-answers.js';
