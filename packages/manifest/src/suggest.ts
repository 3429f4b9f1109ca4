/**
 * The known key a mistyped key most likely meant, or undefined when none is close. Catches the usual
 * slips: a typo (`recommend_policy`), another case style (`inputSchema`, `Image`), or a part of the name
 * (`policy` for `recommended_policy`, `memory` for `max_memory_mb`).
 */
export function closestKey(key: string, candidates: readonly string[]): string | undefined {
  const wanted = normalise(key);
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    if (candidate === key) continue;
    const distance = editDistance(wanted, candidate);
    const close = distance <= Math.max(1, Math.floor(candidate.length / 4)) || (wanted.length >= 4 && candidate.length >= 4 && (candidate.includes(wanted) || wanted.includes(candidate)));
    if (close && distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

/** camelCase, kebab-case and capitals to the snake_case Selu's keys use. */
function normalise(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[-\s]+/g, "_")
    .toLowerCase();
}

/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}
