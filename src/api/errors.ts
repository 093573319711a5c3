// The one error type of the client. Callers switch on `code` ('E_API') and `kind`, never on
// message text. Messages follow the unjs/ofetch style, prefixed with the operation:
//   getDatasetPermissions: [GET] "<path>?<query>": 404 Not Found — Not Found (trace id toe=…)
// No message or field ever holds a token or a header (see redactSecrets).
import type { OperationId } from './types.js';

export type ApiErrorKind =
  /** The server answered with a non-2xx status. */
  | 'http'
  /** No answer: connection refused/reset/dropped, DNS failure. */
  | 'network'
  /** No complete answer within timeoutMs. */
  | 'timeout'
  /** The answer does not match the documented shape (schema validation, not JSON). */
  | 'drift'
  /** A limit/skip endpoint repeated a page: the server ignores `skip`. */
  | 'pagination'
  /** The client cannot make the call (no workflow URL configured). */
  | 'config'
  /** An argument cannot be sent (an id that is a dot segment). */
  | 'input'
  /** The answer was larger than the body cap (decompressed). */
  | 'too-large'
  /** Not sent: requests of this operation kept failing (api/breaker.ts). */
  | 'circuit-open'
  /** The run's deadline passed before or while the request was sent (ClientOptions.deadline). */
  | 'deadline';

export interface ApiErrorInit {
  kind: ApiErrorKind;
  operation: OperationId;
  method: string;
  /** Path and query below the base URL; never the host or a credential. */
  path: string;
  /** Text after `operation: `. */
  detail: string;
  status?: number;
  /** The error body's `message`, or a short excerpt of a body that is not JSON. */
  apiMessage?: string;
  /** HTTP attempts made for this operation. */
  attempts?: number;
  /** Drift: where in the body the mismatch is, e.g. `[3].schedule.timezone`. */
  field?: string;
  /** Which API host the request went to. */
  host?: 'instance' | 'workflow';
  cause?: unknown;
}

export class ApiError extends Error {
  readonly code = 'E_API' as const;
  readonly kind: ApiErrorKind;
  readonly operation: OperationId;
  readonly method: string;
  readonly path: string;
  readonly status: number | undefined;
  readonly apiMessage: string | undefined;
  readonly attempts: number;
  readonly field: string | undefined;
  readonly host: 'instance' | 'workflow';
  /** A network error's code (ECONNREFUSED, ENOTFOUND, a TLS code), from its cause. */
  readonly networkCode: string | undefined;

  constructor(init: ApiErrorInit) {
    super(`${init.operation}: ${init.detail}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.kind = init.kind;
    this.operation = init.operation;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.apiMessage = init.apiMessage;
    this.attempts = init.attempts ?? 0;
    this.field = init.field;
    this.host = init.host ?? 'instance';
    const code = (init.cause as { code?: unknown } | undefined)?.code;
    this.networkCode = typeof code === 'string' ? code : undefined;
  }

  /** For JSON reports and snapshots: the fields above plus the message, never the cause. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      kind: this.kind,
      message: this.message,
      operation: this.operation,
      method: this.method,
      path: this.path,
      status: this.status,
      apiMessage: this.apiMessage,
      attempts: this.attempts,
      field: this.field,
    };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** What a workflow status means (api-spec "Errors", workflow table). */
export const WORKFLOW_STATUS_MEANING: Readonly<Record<number, string>> = {
  401: 'missing or invalid token: the workflow token is absent, wrong or not sent as "Authorization: Bearer"',
  403: "the token's user lacks the Workflow API grant: Admin › Roles › Grants",
  404: "the workflow does not exist or the token's user cannot see it",
};

/** What a 401 means on endpoints 1–11, naming the header the token was sent in. */
/** A 401 names expiry too: developer tokens expire after the days or years chosen when made. */
export function developerToken401(header: string): string {
  return `missing, invalid or expired developer token (sent in ${header}; developer tokens expire after the lifetime chosen when they were created)`;
}

/** `[GET] "/path": ` — the request part of a message. */
export function requestLabel(method: string, path: string): string {
  return `[${method}] ${JSON.stringify(path)}`;
}

export { MIN_REDACTED_SECRET_LENGTH, redactJson, redactSecrets, secretForms } from '../core/redact.js';
