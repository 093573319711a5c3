// What the commands that compile no policy need: merge, diff, history, notify --from, issues
// sync, waive, init, completion, and the CLI's shared options. Nothing here reaches CEL or
// protobuf (test/architecture checks it): importing the whole library made every command load
// and start them. index.ts re-exports all of it.
export * from './startup.js';
export { BUILTIN_CONFIG, DEFAULT_CONFIG_FILE, demoConfigPath, findConfig, loadConfig } from '../config/index.js';
export { displayPath } from '../core/display-path.js';
export { unwritableProblem } from '../io/writable.js';
export { writeWholeSync } from '../io/write-whole.js';
export type { Report } from '../core/model.js';
export { type ProgressEvent, ProgressState } from '../core/progress.js';
export type { DiffFinding, HistoryRun } from '../history/index.js';
export { DISCOVERABLE_SCOPES, RESOURCE_KIND_NAMES } from '../resources/index.js';
export { parseOverride } from './enforcement.js';
export { exitCodeFor } from './exit-code.js';
export { type DiffOptions, diffRuns, type HistoryOptions, historyRuns, readReportFile, type RunDiff } from './history.js';
export { ISSUE_LABEL, type IssuesSyncOutcome, syncIssues } from './issues-sync.js';
export { instanceNames, mergeReportFiles, mergeReports, regate, stampInstance } from './merge.js';
export { digestOf, NOTIFY_ATTEMPTS, type NotifyOutcome, notifyFrom, SIGNATURE_HEADER, sendNotifications } from './notify.js';
export { fileClashes, type NamedFile } from './run-files.js';
export { type WaiveOptions, type WaiveResult, waive } from './waive.js';
