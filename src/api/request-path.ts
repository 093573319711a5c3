// A request's path as sent: each `{name}` one URL-encoded segment (`/` and `%` stay inside it; dot
// segments are refused before sending), then the query parameters that have a value.
import type { RequestSpec } from './request-spec.js';

export function describePath(spec: RequestSpec): string {
  const path = spec.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(spec.params?.[name] ?? ''));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(spec.query ?? {})) {
    if (value !== undefined) query.set(key, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
