/**
 * The indexes of a line in visual order (UAX #9, L2): from the highest level down to the lowest odd one,
 * every stretch at that level or above is reversed. The line's trailing spaces were cut before (L1).
 */
export function reordered(levels: Uint8Array, start: number, end: number): number[] {
  const order = Array.from({ length: end - start }, (_, i) => start + i);
  let highest = 0;
  let lowestOdd = Number.POSITIVE_INFINITY;
  for (let i = start; i < end; i++) {
    const level = levels[i]!;
    highest = Math.max(highest, level);
    if (level & 1) lowestOdd = Math.min(lowestOdd, level);
  }
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < order.length; ) {
      if (levels[order[i]!]! < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && levels[order[j]!]! >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  return order;
}
