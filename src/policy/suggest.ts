// "Did you mean …?" for misspelt names (policy keys, resource fields, CEL functions): the
// closest known name by edit distance, when it is close enough to be a likely typo.

/** Levenshtein distance (insert, delete, substitute; case-insensitive), with a swap of two neighbours costing 1. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

/** The candidate closest to `name`, if at most a third of its length (at least 1, at most 3) away. */
export function closest(name: string, candidates: Iterable<string>): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (c === name) continue;
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
