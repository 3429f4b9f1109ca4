import { type Run, runsText } from "../../document/inline.js";

/**
 * Characters of a paragraph or quote drawn between turns of the event loop. Text may be as long as the
 * document's 200,000 characters (issue 17 item 2); drawn in one go, that held the event loop for about a
 * second, stalling other calls and cancellation.
 */
export const PIECE_CHARS = 6_000;

/**
 * Runs cut into pieces of about `max` characters, each drawn on the line after the one before: a piece
 * ends at a line break (which the cut replaces, so nothing changes on the page) or, in a stretch of more
 * than `max` characters without one, at its last space, where the line then breaks early.
 */
export function pieces(runs: readonly Run[], max: number = PIECE_CHARS): (readonly Run[])[] {
  let total = 0;
  for (let r = 0; r < runs.length; r++) total += runs[r]!.text.length;
  if (total <= max) return [runs];
  const text = runsText(runs);
  const cuts: { at: number; skip: number }[] = [];
  for (let start = 0; text.length - start > max; ) {
    const window = text.slice(start, start + max);
    const newline = window.lastIndexOf("\n");
    const space = window.lastIndexOf(" ");
    const at = start + (newline > 0 ? newline : space > 0 ? space : max);
    const skip = newline > 0 || space > 0 ? 1 : 0;
    cuts.push({ at, skip });
    start = at + skip;
  }
  const out: Run[][] = [[]];
  let offset = 0;
  let c = 0;
  for (const run of runs) {
    const end = offset + run.text.length;
    let from = offset;
    for (; c < cuts.length && cuts[c]!.at < end; c++) {
      const { at, skip } = cuts[c]!;
      if (at > from) out.at(-1)!.push({ ...run, text: text.slice(from, at) });
      out.push([]);
      from = at + skip;
    }
    if (from < end) out.at(-1)!.push({ ...run, text: text.slice(from, end) });
    offset = end;
  }
  return out.filter((piece) => piece.length > 0);
}
