// Whole-string globs of ids (waivers' `resource`, scope `exclude`): `*` and `?` only.

/** `*` any run of characters, `?` exactly one; everything else literal; the whole id must match. */
export function globMatches(glob: string, value: string): boolean {
  const body = glob.replace(/[.+^${}()|[\]\\*?]/g, (c) => (c === '*' ? '.*' : c === '?' ? '.' : `\\${c}`));
  return new RegExp(`^${body}$`, 's').test(value);
}


/** A glob of only `*` matches every id, including ids that do not exist yet. */
export function matchesEverything(glob: string): boolean {
  return /^\*+$/.test(glob);
}
