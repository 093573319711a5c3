// The steward library: the one API the CLI and the Action call, and programs that embed
// steward. Reports are formatted by src/report.
export { createClient, redactJson, redactSecrets } from '../api/index.js';
export * from './without-policies.js';
export { type PageSpool, recordingApi, type RecordingApi, spooledRecorder, withPageSpool, writeSnapshot } from '../api/snapshot.js';
export type { ClientOptions, InstanceApi, RequestLogEvent } from '../api/types.js';
export { BUILTIN_POLICIES, builtinPolicyDir, CONFIG_SCHEMA, type Config, DEFAULT_HISTORY_FILE, isDatabaseUrl } from '../config/index.js';
export { type HeldLocks, lockFiles } from '../io/file-lock.js';
export type { Finding, FixedFinding, HistorySummary, Lifecycle, Override, PolicyResult, SourceLocation } from '../core/model.js';
export { formatPolicyTestResults, type PolicyTestResult, type PolicyTestRun } from '../engine/policy-tests.js';
export {
  type ApplyOptions,
  type ApplyResult,
  applyFixes,
  defaultJournalPath,
  type FixPlan,
  JOURNAL_DIR,
  notAppliedCounts,
  type PlannedChange,
  readPlan,
  readResumeJournal,
  type ResumeJournal,
  renderPlanJson,
  renderPlanText,
  resumePlan,
  writeBackChange,
  writeBackPlan,
} from '../fix/index.js';
export type { PolicyDefinition } from '../policy/types.js';
export { RESOURCE_MANIFEST_INPUTS } from '../resources/index.js';
export { type Connection, connectionProblems, openConnection, withConnection } from './connect.js';
export { type DoctorCheck, type DoctorReport, doctor, renderDoctorText } from './doctor.js';
export { check, type Evaluation, evaluate, evaluateInstances, evaluateOn, withRunHistory } from './evaluate.js';
export { type EmptyInstance, emptyRunProblem } from './empty-run.js';
export { listPolicies, type PolicySource, testPolicies, validate } from './policies.js';
export { type PlanRunOptions, planRunFixes as planFixes } from './plan-run.js';
export { fix, type FixMode, type FixOptions, type FixOutcome, fixWithin, NOT_APPLIED_ON_ERRORS } from './fix.js';
export { type CheckOptions, type PreparedRun, prepareRun } from './prepare.js';
export { type ConfigSetting, resolvedConfig } from './print-config.js';
export { NOTIFICATION_SCHEMA, NOTIFY_MAX_ITEMS } from './notify-payloads.js';
export { EXPLAIN_MAX_ITEMS, type ExplainedItem, type Explanation, type ExplainOptions, explain, explainTarget } from './explain.js';
export type { ExplainedExpression, ExplainedNode } from '../policy/explain.js';
export { EVIDENCE_MANIFEST, type EvidenceResult, type VerifyResult, verifyEvidence, writeEvidence } from './evidence.js';
