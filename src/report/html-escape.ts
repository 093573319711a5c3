// Text into HTML: every value the report carries comes from the instance or the user's files.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;

export function escapeHtml(text: string): string {
  // Most values (ids, severities, dates) hold none: returned as they are, nothing allocated.
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ENTITIES[c]!) : text;
}
