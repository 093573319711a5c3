// A failure no other request of the run can escape: the instance refused the token (401), the
// host cannot be reached at all (connection refused, its name does not resolve, TLS failed), or
// the run's deadline passed. The transport stops sending once one is seen (the 401 latch, the
// unreachable-host latch here, the deadline), and the run reports it once, with what to do,
// instead of once per policy and resource.
import type { RunWideCause } from '../core/model.js';
import { type ApiError, isApiError } from './errors.js';

export type { RunWideCause };

/**
 * Network error codes that say the host cannot be reached by any request of this run, each in
 * words. EAI_AGAIN (a DNS server that did not answer in time) is transient and not here; a reset
 * or dropped connection reached the server and is retried.
 */
export const UNREACHABLE_HOST_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'it refused the connection',
  ENOTFOUND: 'its name does not resolve (DNS)',
  EHOSTUNREACH: 'no route to it',
  ENETUNREACH: 'the network is unreachable',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain ends in an untrusted (self-signed) root',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate cannot be verified (an unknown CA)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate cannot be verified (an unknown CA)',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
};


const TLS_ADVICE = 'a proxy or a private CA in the way? point NODE_EXTRA_CA_CERTS at its certificate (never turn verification off)';

/** The run-wide cause an error is, or null for an error of one request (a 404, a 403, drift). */
export function runWideCause(err: unknown): RunWideCause | null {
  if (!isApiError(err)) return null;
  const workflow = err.host === 'workflow';
  const where = workflow ? 'the workflow API' : 'the instance';
  if (err.kind === 'deadline') {
    return { cause: `the run's deadline passed (${err.message.replace(/^.*deadline \(([^)]*)\).*$/s, '$1')})`, advice: 'raise --timeout (or timeout: in steward.yaml), or narrow the scope' };
  }
  if (err.kind === 'http' && err.status === 401) {
    return {
      cause: `${where} refused the ${workflow ? 'workflow token' : 'developer token'} (401 Unauthorized)`,
      advice: `set ${workflow ? 'STEWARD_WORKFLOW_TOKEN' : 'STEWARD_TOKEN'} to a valid token of this instance (tokens expire; \`steward doctor\` checks it)`,
    };
  }
  const code = err.kind === 'network' ? err.networkCode : undefined;
  const words = code ? UNREACHABLE_HOST_CODES[code] : undefined;
  if (!code || !words) return null;
  const tls = !/^E(CONNREFUSED|NOTFOUND|HOSTUNREACH|NETUNREACH)$/.test(code);
  return {
    cause: `${where} cannot be reached: ${words} (${code})`,
    advice: tls ? TLS_ADVICE : `check the ${workflow ? 'workflow URL (--workflow-url, STEWARD_WORKFLOW_URL or instance.workflowUrl)' : 'base URL (--base-url, STEWARD_BASE_URL or instance.baseUrl)'} and that this machine can reach it`,
  };
}

export function isRunWide(err: unknown): err is ApiError {
  return runWideCause(err) !== null;
}
