// The fix plan (DESIGN §10), as printed by `steward fix`, saved by `--plan-out` and applied by
// `--apply --plan FILE`. Its JSON form is described by schema/plan.schema.json.
import type { FindingResource } from '../core/model.js';
import type { ResourceDocument } from '../resources/types.js';

export const PLAN_SCHEMA_VERSION = 1;

export interface ManifestRef {
  /** As shown in output: relative to the plan's root, `/` separated. */
  file: string;
  /** sha256 of the manifest's text when the plan was made. */
  sha256: string;
}

export interface PlannedRequest {
  operation: string;
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
}

/**
 * One request. `state` changes write a declared resource's whole state after all its fixes
 * (`after`); `action` changes (dataset tag, index) send what one fix asks for.
 */
export interface PlannedChange {
  /** 1-based, the order of application. */
  n: number;
  type: 'state' | 'action';
  policies: string[];
  /** Fingerprints of the findings this change fixes. */
  findings: string[];
  resource: FindingResource;
  manifest: ManifestRef | null;
  request: PlannedRequest;
  before: ResourceDocument;
  after: ResourceDocument;
  /** Readable before → after lines, one per changed value or entry. */
  diff: string[];
  warnings: string[];
  /** Action changes: the fix kind and its value. */
  fix?: { name: string; value: unknown };
}

export interface NotPlanned {
  policies: string[];
  findings: string[];
  resource: FindingResource;
  manifest: ManifestRef | null;
  reason: string;
}

/** A change left out because the journal given with `--journal` shows it already applied. */
export interface AlreadyApplied {
  type: PlannedChange['type'];
  policies: string[];
  findings: string[];
  resource: FindingResource;
  manifest: ManifestRef | null;
  request: PlannedRequest;
  /** The declared document after the fix (`--write` puts it in the manifest). */
  after: ResourceDocument;
  /** Where the journal recorded it: the file (as shown), the plan and change number, and when. */
  journal: { file: string; planId: string; change: number; time: string };
}

export interface FixPlan {
  schemaVersion: typeof PLAN_SCHEMA_VERSION;
  /** Hash of the changes and the manifests' sha256s. */
  id: string;
  createdAt: string;
  instance: string | null;
  changes: PlannedChange[];
  notPlanned: NotPlanned[];
  /** Every manifest a change was planned from. */
  manifests: ManifestRef[];
  /** Present when the plan was made with a journal (`--journal FILE` that exists). */
  alreadyApplied?: AlreadyApplied[];
  /** Violations of policies that name no fix (fixed by hand, as each policy's description says). */
  withoutFix?: number;
}
