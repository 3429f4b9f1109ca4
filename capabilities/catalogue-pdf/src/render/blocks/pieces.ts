import { type Run, runsText } from "../../document/inline.js";

/**
 * Characters of a paragraph or quote drawn between turns of the event loop. Text may be as long as the
 * document's 200,000 characters (issue 17 item 2); drawn in one go, that held the event loop for about a
 * second, stalling other calls and cancellation.
 */
export const PIECE_CHARS = 6_000;

/** A piece of a paragraph: its runs, and whether its last line goes on in the next piece. */
export interface Piece {
  runs: readonly Run[];
  /** Cut at a space in a stretch without line breaks: the next piece continues its last line. */
  continues: boolean;
}

/**
 * Runs cut into pieces of about `max` characters: a piece ends at a line break (which the cut replaces,
 * so nothing changes on the page) or, in a stretch of more than `max` characters without one, after its
 * last space (kept), where the next piece continues the line.
 */
export function pieces(runs: readonly Run[], max: number = PIECE_CHARS): Piece[] {
  let total = 0;
  for (let r = 0; r < runs.length; r++) total += runs[r]!.text.length;
  if (total <= max) return [{ runs, continues: false }];
  const text = runsText(runs);
  const cuts: { at: number; skip: number; continues: boolean }[] = [];
  for (let start = 0; text.length - start > max; ) {
    const window = text.slice(start, start + max);
    const newline = window.lastIndexOf("\n");
    const space = window.lastIndexOf(" ");
    const cut = newline > 0 ? { at: start + newline, skip: 1, continues: false } : { at: start + (space > 0 ? space + 1 : max), skip: 0, continues: true };
    cuts.push(cut);
    start = cut.at + cut.skip;
  }
  const out: { runs: Run[]; continues: boolean }[] = [{ runs: [], continues: false }];
  let offset = 0;
  let c = 0;
  for (const run of runs) {
    const end = offset + run.text.length;
    let from = offset;
    for (; c < cuts.length && cuts[c]!.at < end; c++) {
      const { at, skip, continues } = cuts[c]!;
      if (at > from) out.at(-1)!.runs.push({ ...run, text: text.slice(from, at) });
      out.at(-1)!.continues = continues;
      out.push({ runs: [], continues: false });
      from = at + skip;
    }
    if (from < end) out.at(-1)!.runs.push({ ...run, text: text.slice(from, end) });
    offset = end;
  }
  return out.filter((piece) => piece.runs.length > 0);
}
