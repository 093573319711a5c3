// What every resource kind declares, in one place per kind (DESIGN §5): how it is collected,
// which document parts need their own request, its document shape and its fix kinds.
import type { InstanceApi } from '../client/types.js';
import type { SourceLocation } from '../report/model.js';

export type ResourceDocument = Record<string, unknown> & { id: string | number };

/** Where a declared resource comes from: its manifest file, and a position per item path. */
export interface ManifestSource {
  file: string;
  /** The resource's id key (`queue:` / `dataFile:`). */
  location: SourceLocation;
  /** e.g. `permissions[1]` → position of that entry; `publicAccess` → position of the value. */
  paths: Record<string, SourceLocation>;
  /** Hash of the file's text when read (plans refuse to apply after it changed). */
  sha256: string;
}

export interface CollectedResource {
  kind: string;
  id: string;
  name: string | null;
  /** The base document. Parts are added under their names once loaded. */
  doc: ResourceDocument;
  source: ManifestSource | null;
}

/** The scope the API cannot list (DESIGN §4), resolved to plain lists. */
export interface Scope {
  datasets: string[];
  cards: string[];
  /** filesetId → paths */
  filesets: Record<string, string[]>;
}

export interface CollectContext {
  api: InstanceApi;
  scope: Scope;
  /** Manifest files per declared kind, already resolved (absolute paths). */
  manifestFiles: { queues: string[]; dataFiles: string[] };
  /** Base dir used to print manifest paths relative (cwd or GITHUB_WORKSPACE). */
  displayRoot: string;
}

export interface DocumentPart {
  /** Field name in the document, e.g. `access`. */
  name: string;
  load(api: InstanceApi, resource: CollectedResource): Promise<unknown>;
}

/** One fix kind a resource kind allows, e.g. queue `revoke`. A fix never widens access. */
export interface FixKind {
  name: string;
  /** JSON Schema of the fix's value in a policy (`revoke: [ADMIN]` → array of permissions). */
  schema: Record<string, unknown>;
  /** true: applies to an `each` item (the path names it); false: to the whole resource. */
  perItem: boolean;
  /** The document after the fix. Pure: returns a new object. */
  apply(doc: ResourceDocument, value: unknown, itemPath: string | null): ResourceDocument;
}

/** The write request that sets a resource's state to `doc` (permission endpoints replace). */
export interface PlannedWrite {
  operation: string;
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
}

export interface ResourceKind {
  name: string;
  description: string;
  /** Live kinds are read through the API; declared kinds come from manifests. */
  live: boolean;
  /** JSON Schema of the document expressions see as `resource` (parts included). */
  documentSchema: Record<string, unknown>;
  parts: Record<string, DocumentPart>;
  collect(ctx: CollectContext): AsyncIterable<CollectedResource>;
  fixes: Record<string, FixKind>;
  /** The request that writes `doc` back, for kinds with fixes. */
  write?(doc: ResourceDocument): PlannedWrite;
  /** Sends that request. */
  send?(api: InstanceApi, doc: ResourceDocument): Promise<void>;
}
