import { type Run, runsText } from "../../document/inline.js";
import { lineBreaks } from "../../text/line-breaks.js";

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
 * #14, and between the words of Thai and its kin), or between characters when no such part fits (a long
 * token: a hash, base64; a letter keeps its marks), and the rest; undefined when not even one fits.
 */
export function fittingPart(runs: readonly Run[], height: number, heightOf: (runs: readonly Run[]) => number): [Run[], Run[]] | undefined {
  if (heightOf(runs) <= height) return [[...runs], []];
  const text = runsText(runs);
  const fits = (at: number) => heightOf(cutRuns(runs, at)[0]) <= height;
  let at = lastFitting(
    Array.from(lineBreaks(text), (bk) => bk.position),
    fits,
  );
  if (at === undefined) {
    graphemes ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
    const characters = Array.from(graphemes.segment(text), ({ index, segment }) => index + segment.length);
    at = lastFitting(characters, fits);
  }
  return at === undefined ? undefined : cutRuns(runs, at);
}

/** The last of `cuts` (in order; a part's height grows with its text) that `fits`, by bisection. */
function lastFitting(cuts: readonly number[], fits: (at: number) => boolean): number | undefined {
  let best: number | undefined;
  for (let lo = 0, hi = cuts.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (fits(cuts[mid]!)) {
      best = cuts[mid]!;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

// Made at the first cell cut between characters (ICU's segmenters stay resident once made).
let graphemes: Intl.Segmenter | undefined;
