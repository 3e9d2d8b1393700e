/**
 * "did you mean `name`?" — the closest candidate to a misspelt name, by edit distance
 * (insert, delete, substitute, and a swap of two neighbours counts as one edit, since
 * `nmae` for `name` is the commonest slip). Only close matches are offered: at most one
 * edit for short names, a third of the length for longer ones, and never one that edits
 * every character (`x` is not a slip for `A`); ties go to the first.
 */

export function closestName(wrong: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(wrong.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const c of candidates) {
    if (Math.abs(c.length - wrong.length) > limit) continue;
    const d = editDistance(wrong.toLowerCase(), c.toLowerCase());
    if (d < bestDistance && d < wrong.length) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** The hint line, or none. */
export function didYouMean(wrong: string, candidates: Iterable<string>): string[] {
  const name = closestName(wrong, candidates);
  return name === undefined ? [] : [`did you mean \`${name}\`?`];
}

/** Optimal string alignment distance (Damerau–Levenshtein without repeated edits of a substring). */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array(rows * cols);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[(i - 1) * cols + j] + 1, d[i * cols + j - 1] + 1, d[(i - 1) * cols + j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[(i - 2) * cols + j - 2] + 1);
      d[i * cols + j] = v;
    }
  }
  return d[rows * cols - 1];
}
