// What a failed exchange says, in words: a status's documented meaning, the message of an error
// body (its `message`, or the instance host's status reason and trace id, or an excerpt), and a
// network error's innermost cause without anything request-related attached.
import { BODY_EXCERPT_CHARS, ERROR_TRACE_FIELD } from './assumptions.js';
import { developerToken401, WORKFLOW_STATUS_MEANING } from './errors.js';
import type { RequestSpec } from './request-spec.js';
import { errorCodes } from './retry.js';
import { UNREACHABLE_HOST_CODES } from './run-wide.js';

/** What a status means for this request, where the platform documents it. */
export function statusMeaning(spec: RequestSpec, status: number, tokenHeader: string): string | undefined {
  if (spec.host === 'workflow') return WORKFLOW_STATUS_MEANING[status];
  if (status === 401) return developerToken401(tokenHeader);
  // The instance host's workflow models need the same Workflow API grant.
  if (spec.operation === 'listWorkflowModels' && status === 403) return WORKFLOW_STATUS_MEANING[403];
  return undefined;
}


/**
 * The body's `message` when it is JSON with one; else, for the instance host's
 * `{status, statusReason, toe}`, the status reason and the trace id; else a short excerpt.
 */
export function messageOf(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    if (body && typeof body === 'object') {
      if (typeof body.message === 'string') return body.message;
      const trace = body[ERROR_TRACE_FIELD];
      if (typeof body.statusReason === 'string' || typeof trace === 'string') {
        const reason = typeof body.statusReason === 'string' ? body.statusReason : 'no message';
        return typeof trace === 'string' ? `${reason} (trace id ${ERROR_TRACE_FIELD}=${trace})` : reason;
      }
    }
  } catch {
    // not JSON: some 404s are HTML or plain text
  }
  return excerpt(text);
}

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > BODY_EXCERPT_CHARS ? `${flat.slice(0, BODY_EXCERPT_CHARS)}…` : flat;
}

/** The innermost error message of a network failure (wrapped errors are followed to their cause). */
export function describeNetworkError(error: unknown): string {
  let current: unknown = error;
  let message = error instanceof Error ? error.message : String(error);
  while (current instanceof Error && current.cause !== undefined) {
    current = current.cause;
    if (current instanceof AggregateError && current.errors.length > 0) current = current.errors[0];
    if (current instanceof Error && current.message) message = current.message;
  }
  return message;
}

/** The code of a failure's chain that names why (a socket's ECONNREFUSED, a TLS code), not a wrapper's. */
export function networkCodeOf(error: unknown): string | undefined {
  const codes = errorCodes(error);
  return codes.find((c) => c in UNREACHABLE_HOST_CODES) ?? codes.at(-1);
}

/** The network error without anything request-related attached (no options, no headers). */
export function sanitizedCause(error: unknown): Error {
  const out = new Error(describeNetworkError(error));
  const code = networkCodeOf(error);
  if (code) (out as Error & { code?: string }).code = code;
  return out;
}
