// The steward library: what the CLI and the Action run, for programs that embed it.
export { type CheckOptions, check, type Evaluation, evaluate, exitCodeFor, type PreparedRun, prepareRun, type ProgressEvent } from './library/run.js';
export { ApiError, createClient, isApiError } from './api/index.js';
export { type DoctorCheck, type DoctorReport, doctor, renderDoctorText } from './library/doctor.js';
export type { ClientOptions, InstanceApi, RequestLogEvent } from './api/types.js';
export { CONFIG_SCHEMA, type Config, type ConfigOverrides, loadConfig } from './config/index.js';
export { formatProblem, InputError } from './core/problem.js';
export {
  type ApplyOptions,
  type ApplyResult,
  applyFixes,
  collectDeclared,
  createDocChecker,
  type FixPlan,
  type PlanInput,
  type PlannedChange,
  planFixes,
  renderPlanJson,
  renderPlanText,
} from './fix/index.js';
export type { PolicyDefinition } from './policy/types.js';
export type { InputProblem } from './core/problem.js';
export { FORMATS, type Format, formatReport } from './report/index.js';
export type { FailOn, Finding, PolicyResult, Report, Severity } from './core/model.js';
export { type PlanRunOptions, planRunFixes } from './library/plan-run.js';
export { startSandbox } from './sandbox/index.js';
export type { Sandbox, SandboxOptions } from './sandbox/types.js';
