// What every resource kind declares, in one place per kind (DESIGN §5): how it is collected,
// which document parts need their own request, its document shape and its fix kinds.
import type { InstanceApi, OperationId, ScheduleFilter, WriteRequest } from '../api/types.js';
import type { SourceLocation } from '../core/model.js';

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
  /**
   * Raw fields of the listing's item that a part takes instead of its own read, parsed only when
   * a policy reads that part (a malformed one then fails those policies only, not the kind).
   */
  listed?: Readonly<Record<string, unknown>>;
  /** Set when this one resource's own read failed (e.g. a fileset path): every policy of the kind reports an error for it. */
  loadError?: Error;
}

/**
 * Run-scoped memo: the first call with a key runs `fn`, later calls share its promise. Lets a
 * read shared by many resources (the misconfigured list, the schedule list) be made once.
 */
export interface RunMemo {
  <T>(key: string, fn: () => Promise<T>): Promise<T>;
  /** The value of `key` once its read has succeeded; undefined before that, or after a failure. */
  settled?<T>(key: string): { value: T } | undefined;
}

/** What a kind's `scope.<key>` list holds: ids, or paths per file-set id. */
export type ScopeShape = 'ids' | 'paths';

/** A kind's entry in steward.yaml's `scope` (the config schema and `Scope` follow from these). */
export interface ScopeInput {
  /** The key under `scope:`, e.g. `datasets`. */
  key: string;
  shape: ScopeShape;
  /** What one entry is, e.g. `dataset` (messages, the config schema). */
  description: string;
  /** One cheap read that fails (404) when the entry does not exist (`steward doctor`). */
  exists(api: InstanceApi, id: string, path?: string): Promise<unknown>;
  /** The listing `all` reads (`steward doctor` lists it); none: the kind cannot be discovered. */
  discovery?: OperationId;
  /** An absent or empty list means every resource the listing gives (workflows), not none. */
  emptyMeansAll?: boolean;
}

/** Where a kind's resources come from, as its `inputs` declare (the config schema is derived from them). */
export interface KindInputs {
  /** Named in `scope.<key>` of steward.yaml: ids, or paths per file-set id. */
  scope?: ScopeInput;
  /** Declared one per YAML file matched by `manifests.<key>`. */
  manifests?: { key: string; description: string };
  /** Also found through this kind (cards sent by schedules): an empty scope list is not "nothing to check". */
  alsoFrom?: string;
}

/** `scope.<key>: all` (or `{ all: true, exclude: [...] }`): every resource the listing gives, minus these ids or globs. */
export interface Discovery {
  exclude: string[];
}

/**
 * steward.yaml's `scope`, resolved to plain lists, keyed by the scope keys the kinds declare
 * (no other list of them exists): a kind reads its own key; a key absent is an empty list.
 */
export interface Scope {
  /** Ids per key of an `ids` kind. */
  ids: Readonly<Partial<Record<string, readonly string[]>>>;
  /** Paths per set id, per key of a `paths` kind. */
  paths: Readonly<Partial<Record<string, Readonly<Record<string, readonly string[]>>>>>;
  /** The keys whose kind is discovered through its listing (`all`), with what to leave out. */
  discover: Readonly<Partial<Record<string, Discovery>>>;
  /** The report-schedule list's `filter` (default ALL: every schedule; needs the content admin grant). */
  scheduleFilter?: ScheduleFilter;
}

export interface CollectContext {
  api: InstanceApi;
  /** The kind's resources already read from its manifests (library/prepare.ts). */
  declared?: CollectedResource[];
  scope: Scope;
  /** Manifest files per `manifests` key (absolute paths). */
  manifestFiles: ManifestFiles;
  /** Base dir used to print manifest paths relative (cwd or GITHUB_WORKSPACE). */
  displayRoot: string;
  /** Run-scoped memo (the engine passes one); without it shared reads are made per call. */
  once?: RunMemo;
  /**
   * What the run reads (the engine passes it): the parts of this kind its policies read, and the
   * kinds it collects. A kind whose listing another join could need keeps it whole unless told
   * none will; without this, it keeps it.
   */
  reads?: { parts: ReadonlySet<string>; kinds: ReadonlySet<string> };
}

export interface DocumentPart {
  /** Field name in the document, e.g. `access`. */
  name: string;
  /** The read it makes (what `steward doctor` lists per policy). */
  operation: OperationId;
  /** Other reads it joins (the owner part: the kind's listing beside the user directory). */
  alsoReads?: OperationId[];
  load(api: InstanceApi, resource: CollectedResource, once?: RunMemo): Promise<unknown>;
  /**
   * The part's own read alone, where `load` joins a whole listing beside it (`steward doctor`
   * makes it for one resource; the listing has a check of its own). Without it doctor loads the part.
   */
  probe?(api: InstanceApi, resource: CollectedResource): Promise<unknown>;
  /**
   * The part's value without waiting, when the shared read behind it has already settled
   * (one shared list joined into every resource: no promise per resource once it is read).
   */
  loaded?(resource: CollectedResource, once?: RunMemo): { value: unknown } | undefined;
  /**
   * The check of the part's shared read that needs the whole collection, awaited once the kind is
   * collected (the misconfigured list's cross-check needs every schedule id: awaited per resource,
   * it would hold every resource until the list's end). When it fails, every policy reading the
   * part errors and keeps none of its findings, as when the shared read itself fails.
   */
  verify?(api: InstanceApi, once?: RunMemo): Promise<void>;
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
  /** Shown in the fix plan (e.g. the tag POST may replace the dataset's tag list). */
  warning?: string;
  /** true: never planned unless the user opts in explicitly (DESIGN §2: tag writes). */
  optIn?: boolean;
  /** For action fixes (tags, index) whose request follows from the fix value, not from the document's state. */
  request?(doc: ResourceDocument, value: unknown): PlannedWrite;
  /** Document parts `request` reads (dataset tags), loaded when the fix is planned. */
  reads?: string[];
  /** Why this finding's item is not fixed (the fix would widen access), or null: listed as not planned. */
  refusal?(doc: ResourceDocument, value: unknown, itemPath: string | null): string | null;
  /** A fix no documented write makes: the exact change to make by hand, listed as not planned (never a request). */
  byHand?(doc: ResourceDocument, value: unknown, itemPath: string | null): string;
}

/** What a `steward doctor` probe may depend on: the resolved scope and the workflow host. */
export interface ProbeContext {
  scope: Scope;
  workflowUrl: string | null;
}

/**
 * One cheap request `steward doctor` makes for a kind when a selected policy needs one of the
 * operations in `when` (the grant behind a whole-instance read: the schedule filter, the
 * Workflow API grant): what it checks, what it asks, and what to do when it is refused.
 */
export interface KindProbe {
  id: string;
  /** The probe is refused without the kind's `completeWith` grant (most listings answer either way). */
  verifiesGrant?: boolean;
  when: OperationId[];
  plan(ctx: ProbeContext): {
    check: string;
    asked: string;
    run(api: InstanceApi): Promise<unknown>;
    /** What to do when the request was refused with this status (403, 404, 401, …). */
    fix(status: number | undefined): string;
  };
}

/** A write as planned, and as `fix --apply` sends it (the client checks it is one of its writes). */
export type PlannedWrite = WriteRequest;

/** Manifest files per `manifests` key of steward.yaml (absolute, sorted). */
export type ManifestFiles = Record<string, string[]>;

export interface ResourceKind {
  name: string;
  description: string;
  /** How its resources are found; none: the whole instance (a listing or one document). */
  inputs: KindInputs;
  /** Live kinds are read through the API; declared kinds come from manifests. */
  live: boolean;
  /** The reads collecting it makes, whatever the policies read (parts add theirs). */
  operations: OperationId[];
  /** JSON Schema of the document expressions see as `resource` (parts included). */
  documentSchema: Record<string, unknown>;
  parts: Record<string, DocumentPart>;
  /** Why a kind without an `owner` part has no owner (findings say it as `ownerUnknown`; the `owners:` map still routes them). */
  ownerless?: string;
  /**
   * The kind's resources, one by one or a page at a time (an array): a listing of 300,000
   * yielded one by one cost a promise and a result object each.
   */
  collect(ctx: CollectContext): AsyncIterable<CollectedResource | readonly CollectedResource[]>;
  /** Declared kinds: the resources their manifests declare (no API read). */
  declare?(ctx: Pick<CollectContext, 'manifestFiles' | 'displayRoot'>): Promise<CollectedResource[]>;
  /** What `fix:` may set; a read-only kind has none. */
  fixes?: Record<string, FixKind>;
  /**
   * The request that sets the resource's state from `before` to `after`, for kinds with state
   * fixes: the full list after, plus what the write needs to take away what `before` had.
   */
  write?(after: ResourceDocument, before: ResourceDocument): PlannedWrite;
  /** The grants `steward doctor` probes for this kind, beyond its scope entries. */
  probes?: KindProbe[];
  /** Why this kind's listing is known to be partial with this scope (a narrowed filter), or null. */
  knownPartial?(scope: Scope): string | null;
  /** The grant without which the kind's listing holds only what the token's user can see (PLATFORM.md §7 E9). */
  completeWith?: string;
  /** Why `after` grants more than `before` (null when it does not): a guard fixes call before writing. */
  widens?(before: ResourceDocument, after: ResourceDocument): string | null;
}
