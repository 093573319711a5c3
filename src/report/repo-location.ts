// Where a finding is shown in the repository, for the formats GitHub maps onto the repo's files
// (SARIF for code scanning, workflow annotations, the job summary). Report locations are relative
// to the run's root (the cwd, or GITHUB_WORKSPACE in the Action). A policy of the built-in pack
// lives outside it (node_modules/@steward-pac/steward/policies, or the action's own checkout).
// An annotation or a summary row then carries no location (stacking every such finding on one
// steward.yaml line told nothing). Code scanning needs a file for every result, so SARIF alone
// places such a finding at its policy's ORIGIN, the steward.yaml `policies` entry that brought
// the policy in. This is the one place that decides "is this location inside the root".
import path from 'node:path';
import type { Finding, PolicyResult, SourceLocation } from '../core/model.js';

/** A file of the repository: relative, not above the root, not inside an installed package. */
export function insideRoot(loc: SourceLocation): boolean {
  const file = loc.file.replace(/\\/g, '/');
  if (file === '' || file.startsWith('/') || /^[A-Za-z]:/.test(file)) return false;
  if (file === '..' || file.startsWith('../')) return false;
  return !/(^|\/)node_modules(\/|$)/.test(file);
}

/** A position in a file, not a flag or another line-less source (`--policies`). */
function isFilePosition(loc: SourceLocation): boolean {
  return loc.line > 0 && insideRoot(loc);
}

export interface RepoPlacement {
  /** Where to show it in the repository; null when no file of the repository fits. */
  location: SourceLocation | null;
  /** The policy's own definition, when `location` is its origin instead (else null). */
  policyLocation: SourceLocation | null;
}

/**
 * `location` (a finding's, or a policy's own) as a place in the repository. Only a location in
 * the policy's own file moves to the origin: a manifest outside the root is not the policy's.
 */
function place(location: SourceLocation | null, policy: PolicyResult | undefined): RepoPlacement {
  if (location && insideRoot(location)) return { location, policyLocation: null };
  const own = policy?.location ?? null;
  const origin = policy?.origin ?? null;
  const isPolicyFile = location === null || (own !== null && location.file === own.file);
  if (isPolicyFile && origin && isFilePosition(origin)) {
    return { location: origin, policyLocation: location ?? own };
  }
  return { location: null, policyLocation: null };
}

/** Where a finding goes in code scanning (its own location falls back to its policy's, then the origin). */
export function findingRepoLocation(f: Finding, policy: PolicyResult | undefined): RepoPlacement {
  return place(f.location ?? policy?.location ?? null, policy);
}

/** Where a policy (its evaluation error, its rule) goes in code scanning. */
export function policyRepoLocation(policy: PolicyResult): RepoPlacement {
  return place(policy.location, policy);
}

/**
 * Where an annotation or a summary row points: the finding's manifest line, else its policy's
 * line when the policy file is in the repository, else nowhere (never the origin).
 */
export function findingFileLocation(f: Finding, policy: PolicyResult | undefined): SourceLocation | null {
  const loc = f.location ?? policy?.location ?? null;
  return loc && insideRoot(loc) ? loc : null;
}

/** Where an annotation or a summary line about a policy points: its file in the repository, else nowhere. */
export function policyFileLocation(policy: PolicyResult | undefined, fallback: SourceLocation | null = null): SourceLocation | null {
  const loc = policy?.location ?? fallback;
  return loc && insideRoot(loc) ? loc : null;
}

/** `${server}/${repo}/blob/${sha}` when the run is a GitHub Actions job (its default variables), else undefined. */
export function blobUrlFromEnv(env: Record<string, string | undefined>): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_SHA: sha } = env;
  return server && repo && sha && /^[0-9a-f]{40}$/.test(sha) ? `${server.replace(/\/+$/, '')}/${repo}/blob/${sha}` : undefined;
}

/** The file at the commit, at its line: `blobUrl` + the path from the repository root. */
export function blobLink(loc: SourceLocation, blobUrl: string, options: { cwd?: string; root?: string }): string {
  const cwd = options.cwd ?? '.';
  const rel = path.relative(options.root ?? cwd, path.resolve(cwd, loc.file)).split(path.sep).join('/');
  return `${blobUrl}/${rel.split('/').map(encodeURIComponent).join('/')}${loc.line > 0 ? `#L${loc.line}` : ''}`;
}
