// The proxy settings a run takes from the environment (the client's connection pool reads the
// same variables through proxy-from-env): checked before any request, credentials kept secret.
import type { InputProblem } from '../core/problem.js';

/** The variables naming the proxy https origins go through (as curl and npm read them; NO_PROXY exempts hosts). */
export const PROXY_ENV = ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy'] as const;

/**
 * Each proxy variable set: it must name an http(s) CONNECT proxy (exit 2 otherwise, before any
 * request), and its credentials are secrets of the run like the token.
 */
export function proxySettings(env: Record<string, string | undefined>): { problems: InputProblem[]; secrets: string[] } {
  const problems: InputProblem[] = [];
  const secrets: string[] = [];
  for (const name of PROXY_ENV) {
    const value = env[name]?.trim();
    if (!value) continue;
    let url: URL | null = null;
    try {
      url = new URL(value.includes('://') ? value : `https://${value}`);
    } catch {
      url = null;
    }
    if (url && (url.password || url.username)) secrets.push(value, decodeURIComponent(url.password), url.password);
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
      problems.push({ file: name, line: 0, column: 0, message: 'must be an http:// or https:// proxy URL (steward tunnels https through it with CONNECT)' });
    }
  }
  return { problems, secrets };
}
