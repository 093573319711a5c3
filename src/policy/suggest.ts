// "Did you mean …?" for misspelt names (policy keys, resource fields, CEL functions): the
// closest known name by edit distance, when it is close enough to be a likely typo.

/**
 * Levenshtein distance (insert, delete, substitute; case-insensitive), with a swap of two
 * neighbours costing 1. Three rows of the table, not all of it: 20,000 waivers naming one
 * unknown policy spent 12 s allocating tables for their suggestions.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  let older = new Int32Array(t.length + 1);
  let previous = Int32Array.from({ length: t.length + 1 }, (_, j) => j);
  let row = new Int32Array(t.length + 1);
  for (let i = 1; i <= s.length; i++) {
    row[0] = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, older[j - 2]! + 1);
      row[j] = d;
    }
    [older, previous, row] = [previous, row, older];
  }
  return previous[t.length]!;
}

/** The candidate closest to `name`, if at most a third of its length (at least 1, at most 3) away. */
export function closest(name: string, candidates: Iterable<string>): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  const length = name.toLowerCase().length;
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (c === name) continue;
    // The distance is at least the difference in length: such a candidate cannot be closer.
    if (Math.abs(c.toLowerCase().length - length) >= bestDistance) continue;
    const dist = editDistance(name, c);
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return best;
}

/** ` (did you mean 'x'?)`, or '' when nothing is close. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const hit = closest(name, candidates);
  return hit === null ? '' : ` (did you mean '${hit}'?)`;
}
