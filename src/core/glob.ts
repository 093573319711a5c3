// Whole-string globs of ids (waivers' `resource`, scope `exclude`): `*` any run of characters,
// `?` exactly one, `\*`, `\?` and `\\` the character itself; everything else literal.

/** The glob's pieces: a wildcard, or one literal character (escapes resolved). */
function tokens(glob: string): ({ wild: '*' | '?' } | { char: string })[] {
  const out: ({ wild: '*' | '?' } | { char: string })[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\' && (glob[i + 1] === '*' || glob[i + 1] === '?' || glob[i + 1] === '\\')) out.push({ char: glob[++i] });
    else if (c === '*' || c === '?') out.push({ wild: c });
    else out.push({ char: c });
  }
  return out;
}

const compiled = new Map<string, RegExp>();

/** Whether the whole id matches the glob. */
export function globMatches(glob: string, value: string): boolean {
  let re = compiled.get(glob);
  if (!re) {
    const body = tokens(glob)
      .map((t) => ('wild' in t ? (t.wild === '*' ? '.*' : '.') : t.char.replace(/[.+^${}()|[\]\\*?]/g, '\\$&')))
      .join('');
    re = new RegExp(`^${body}$`, 's');
    compiled.set(glob, re);
  }
  return re.test(value);
}

/**
 * Whether a glob names no resource at all: it has no literal character, so it constrains only an
 * id's length (`*`, `**`, `?*`, `*?*`) and matches every id of the policy, including ids that do
 * not exist yet. Decided by what the glob matches, not by how it is spelled.
 */
export function matchesEverything(glob: string): boolean {
  const t = tokens(glob);
  return t.length > 0 && t.every((x) => 'wild' in x);
}

/** The one id a glob without a wildcard matches (its escapes resolved); null when it has one. */
export function literalOf(glob: string): string | null {
  let id = '';
  for (const t of tokens(glob)) {
    if ('wild' in t) return null;
    id += t.char;
  }
  return id;
}

/** The glob that matches exactly this id (its `*`, `?` and `\` escaped). */
export function literalGlob(id: string): string {
  return id.replace(/[\\*?]/g, '\\$&');
}
