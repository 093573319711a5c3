// Contract of the emulated instance (DESIGN §3). Tests, benchmarks, `steward sandbox` and
// `steward check --sandbox` use only what is declared here.
import type {
  CalculatedFieldStatistics,
  CertificationStatus,
  DataFilePermissions,
  DatasetAccessList,
  FilesetFile,
  MisconfiguredReport,
  OperationId,
  QueuePermissionEntry,
} from '../api/types.js';
import type { SandboxSchedule, SandboxWorkflow } from './entities.js';
import type { SandboxPeople } from './people.js';
import type { SandboxSharing } from './sharing.js';

export interface SandboxSize {
  schedules: number;
  datasets: number;
  cards: number;
  queues: number;
  dataFiles: number;
  filesets: number;
  filesPerFileset: number;
  workflows: number;
  /** Generated users beyond the eight named filler users content is owned by. */
  users: number;
  groups: number;
  accessTokens: number;
  pages: number;
  accounts: number;
}

/** A scripted answer for the next request(s) of one operation (deterministic fault). */
export interface ScriptedFault {
  /** HTTP status to answer with (ignored when drop is set). */
  status?: number;
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  /** Raw body to send (default `{"message":"..."}`). */
  body?: string;
  /** Destroy the socket without answering. */
  drop?: boolean;
  /** Answer 200 with a body that is not JSON. */
  malformedJson?: boolean;
  /** Delay before answering, ms. */
  delayMs?: number;
  /** Only for a request to this raw path (one item's read among many in flight); default any. */
  path?: string;
}

export interface FaultOptions {
  /** Added to every answer. */
  latencyMs: number;
  jitterMs: number;
  /** Probability per request of answering with that status, e.g. { 503: 0.1 }. */
  errorRates: Partial<Record<number, number>>;
  /** Probability per request of a 429, sent with Retry-After: retryAfterSeconds. */
  rateLimitRate: number;
  retryAfterSeconds: number;
  /** Probability per request of destroying the connection. */
  dropRate: number;
  /** Probability per request of a 200 with a malformed JSON body. */
  malformedJsonRate: number;
  /** Bodies written in two halves this far apart, ms. */
  slowBodyMs: number;
}

/** The switches a sandbox can change at run time. */
export type SwitchName = 'workflowGrant' | 'adminGrant' | 'misconfiguredStatus' | 'ignoreSkip' | 'overlapPages';

export interface SandboxOptions {
  /** 0 or unset: a free port. Always bound to 127.0.0.1. */
  port?: number;
  /** Developer token accepted by endpoints 1–11 (default: a random one). */
  token?: string;
  /** Bearer token accepted by the workflow API (default: token). */
  workflowToken?: string;
  /** Seed of the generator (default SANDBOX_DEFAULT_SEED). */
  seed?: number;
  /** The clock people's and certifications' dates are planted against (default: the start of today, UTC). */
  now?: Date;
  size?: Partial<SandboxSize>;
  faults?: Partial<FaultOptions>;
  /** Seed of the random faults (default: seed), so one instance can be read under many fault sequences. */
  faultSeed?: number;
  /** Header the developer token must come in (default the client's DEVELOPER_TOKEN_HEADER). */
  tokenHeader?: string;
  /** false: workflow calls answer 403 (token lacks the Workflow API grant). Default true. */
  workflowGrant?: boolean;
  /** false: the token's user is no content admin, so the schedule list refuses filter=ALL with 403. Default true. */
  adminGrant?: boolean;
  /** The misconfigured-reports endpoint answers with this status (default 200). */
  misconfiguredStatus?: 200 | 403 | 409;
  /** Emulates a broken server that ignores `skip` on limit/skip endpoints. */
  ignoreSkip?: boolean;
  /**
   * Emulates the platform's unstable sort on equal keys: each schedule page after the first
   * starts one row early, so a row repeats across pages (and, on the real platform, another is lost).
   */
  overlapPages?: boolean;
}

/** A write as the sandbox received it (tests assert the exact body sent). */
export interface ReceivedWrite {
  operation: OperationId;
  method: string;
  /** The raw path, still encoded. */
  path: string;
  /** The body parsed as JSON, or the text when it is not JSON ('' when none). */
  body: unknown;
}

/** The instance's state. Tests read it back after writes; mutating it changes answers. */
export interface SandboxState {
  schedules: SandboxSchedule[];
  misconfigured: MisconfiguredReport[];
  /** datasetId → access list. */
  datasetAccess: Map<string, DatasetAccessList>;
  /** datasetId → tags (the POST replaces the list, as the platform's does). */
  datasetTags: Map<string, string[]>;
  /** `${entityType}:${id}` (CARD | DATA_SOURCE) → certification. */
  certifications: Map<string, CertificationStatus>;
  /** cards that exist (ids as strings). */
  cards: Set<string>;
  /** queueId → permissions as last written (replace semantics). */
  queuePermissions: Map<string, QueuePermissionEntry[]>;
  /** dataFileId → permissions as last written (replace semantics). */
  dataFilePermissions: Map<string, DataFilePermissions>;
  /** dataFileIds that exist (duplicate adds one with a new id). */
  dataFiles: Set<string>;
  /** filesetId → (path → metadata). */
  filesets: Map<string, Map<string, FilesetFile>>;
  calculatedFields: CalculatedFieldStatistics;
  workflows: SandboxWorkflow[];
  /** datasetIds in the order index requests arrived. */
  indexRequests: string[];
  /** Users, roles, groups, access tokens and the content owners the listings carry. */
  people: SandboxPeople;
  /** Pages, card shares, accounts, file-set access, workflow permissions, PDP, listed certifications. */
  sharing: SandboxSharing;
}

export interface Sandbox {
  /** e.g. http://127.0.0.1:40123 */
  baseUrl: string;
  /** `${baseUrl}/workflow` */
  workflowUrl: string;
  token: string;
  workflowToken: string;
  state: SandboxState;
  /** Requests received per operation (including rejected and faulted ones). */
  counts: Record<OperationId, number>;
  /** Every write request received, in order (resetCounts clears it). */
  received: ReceivedWrite[];
  totalRequests(): number;
  resetCounts(): void;
  /** Change the random fault knobs at run time. */
  setFaults(faults: Partial<FaultOptions>): void;
  /** The next `times` requests of `operation` get this answer, before anything else. */
  scriptFault(operation: OperationId, fault: ScriptedFault, times?: number): void;
  /** Change a switch at run time. */
  configure(options: Pick<SandboxOptions, SwitchName>): void;
  close(): Promise<void>;
}
