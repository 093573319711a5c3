// The token in use, before it stops every scheduled run: with `instance.tokenId` (the access-token
// id, not the token) and a token user who can list access tokens, a run says when the token
// expires within `tokenWarningDays`, has expired, or is not in the list. One read, shared with
// the accessToken kind (the client's memo); never a reason to fail the run.
import type { InstanceApi } from '../api/types.js';
import type { Config } from '../config/index.js';
import type { TokenExpiry } from '../core/model.js';

const DAY_MS = 86_400_000;

export async function tokenExpiry(api: InstanceApi, config: Config, now: Date): Promise<TokenExpiry | null> {
  const id = config.instance.tokenId;
  if (id === null) return null;
  let tokens: Awaited<ReturnType<InstanceApi['listAccessTokens']>>;
  try {
    tokens = await api.listAccessTokens();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { id, expires: null, daysLeft: null, note: `the expiry of the token in use (access token ${id}) is unknown: the access-token list could not be read (${why}); the token user needs developer.token.manage` };
  }
  const token = tokens.find((t) => String(t.id) === id);
  if (!token) return { id, expires: null, daysLeft: null, note: `access token ${id} (instance.tokenId) is not in the access-token list: deleted, or listed under another user the token user cannot see` };
  const daysLeft = Math.floor((token.expires - now.getTime()) / DAY_MS);
  const expires = new Date(token.expires).toISOString();
  if (daysLeft < 0) return { id, expires, daysLeft, note: `the token in use (access token ${id}) expired on ${expires.slice(0, 10)}` };
  if (daysLeft > config.instance.tokenWarningDays) return null;
  return { id, expires, daysLeft, note: `the token in use (access token ${id}) expires on ${expires.slice(0, 10)}, in ${daysLeft} day${daysLeft === 1 ? '' : 's'}: issue a new one and update the secret before then` };
}
