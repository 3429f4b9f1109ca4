import LineBreaker from "linebreak";
import { type Run, runsText } from "../../document/inline.js";

/**
 * The runs of a cell cut in two at text position `at`: what comes before, and what after (the white
 * space at the cut dropped, as a line break would).
 */
export function cutRuns(runs: readonly Run[], at: number): [Run[], Run[]] {
  const before: Run[] = [];
  const after: Run[] = [];
  let from = 0;
  for (const run of runs) {
    const to = from + run.text.length;
    if (to <= at) before.push(run);
    else if (from >= at) after.push(run);
    else {
      before.push({ ...run, text: run.text.slice(0, at - from) });
      after.push({ ...run, text: run.text.slice(at - from) });
    }
    from = to;
  }
  while (after.length > 0) {
    const text = after[0]!.text.trimStart();
    if (text) {
      after[0] = { ...after[0]!, text };
      break;
    }
    after.shift();
  }
  return [before, after];
}

/**
 * The most of a cell that fits in `height` (as `heightOf` measures it), cut where a line may break (UAX
 * #14: at spaces, between ideographs), and the rest; undefined when not even its first piece fits.
 */
export function fittingPart(runs: readonly Run[], height: number, heightOf: (runs: readonly Run[]) => number): [Run[], Run[]] | undefined {
  if (heightOf(runs) <= height) return [[...runs], []];
  const breaker = new LineBreaker(runsText(runs));
  const cuts: number[] = [];
  for (let bk = breaker.nextBreak(); bk; bk = breaker.nextBreak()) cuts.push(bk.position);
  // The last cut whose part fits, by bisection: a part's height grows with its text.
  let best = -1;
  for (let lo = 0, hi = cuts.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (heightOf(cutRuns(runs, cuts[mid]!)[0]) <= height) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best < 0 ? undefined : cutRuns(runs, cuts[best]!);
}
