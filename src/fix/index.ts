// `steward fix` (DESIGN §10): plan → render → apply (journaled) → write back.
export { applyFixes, assertManifestsUnchanged, notAppliedCounts, type ApplyOptions, type ApplyResult } from './apply.js';
export { MAX_CHANGES_DEFAULT } from './change-limit.js';
export { appendJournal, defaultJournalPath, JOURNAL_DIR, type JournalEntry, readJournal } from './journal.js';
export { type DocChecker, type DocViolation, findingsWithFixes, type PlanInput, planFixes } from './plan.js';
export { collectDeclared, createDocChecker } from './recheck.js';
export { parsePlan, readPlan, renderPlanJson, renderPlanText } from './render.js';
export { describeAlreadyApplied, readResumeJournal, type ResumeJournal, resumePlan } from './resume.js';
export { ManifestRewriteError, rewriteManifest } from './rewrite.js';
export { PLAN_SCHEMA } from './schema.js';
export type { AlreadyApplied, FixPlan, ManifestRef, NotPlanned, PlannedChange, PlannedRequest } from './types.js';
export { writeBackChange, type WriteBackItem, writeBackPlan, type WriteBackResult } from './writeback.js';
