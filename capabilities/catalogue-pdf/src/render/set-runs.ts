// Setting runs, and how tall they will be: our line breaking where it can, else pdfkit's wrapper. Apart
// from page.ts because it asks line-break.ts, which itself writes through page.ts.
import { type Run, runsText } from "../document/inline.js";
import { bidiHeight, needsOwnLayout } from "../text/bidi-paragraph.js";
import { fontKeyFor, type FontKey } from "./fonts.js";
import type { Doc } from "./doc.js";
import { brokenHeight, writeBroken } from "./line-break.js";
import { breakableLongWords, type RunsOptions, sizeOf, STYLE, writeRuns } from "./page.js";

/** Writes runs as our line breaking breaks them where it can (see `writeBroken`), else with `writeRuns`. */
export function setRuns(doc: Doc, runs: readonly Run[], options: RunsOptions): void {
  if (!writeBroken(doc, runs, options)) writeRuns(doc, runs, options);
}

/**
 * The height runs take when written with `setRuns` or `writeRuns` (page.ts), measured in the widest face
 * they use; `cell` as the writing's RunsOptions say.
 */
export function runsHeight(doc: Doc, runs: readonly Run[], width: number, size: number, lineGap: number = STYLE.lineGap, cell = false): number {
  if (needsOwnLayout(doc, runs)) return bidiHeight(doc, runs, { width, lineGap, align: "left", cell, sizeOf: (run) => sizeOf(run, { size }), colorOf: () => STYLE.text });
  // One face: measured by our line breaking, as writeBroken sets it (pdfkit's wrapper measures each word again).
  const broken = brokenHeight(doc, runs, width, size, lineGap);
  if (broken !== undefined) return broken;
  // Measured as written: with the break opportunities writeRuns gives long words (else quadratic, see there).
  const text = breakableLongWords(runsText(runs) || " ");
  const faces = new Set<FontKey>(runs.map((r) => fontKeyFor(r)));
  if (faces.size === 0) faces.add("regular");
  let height = 0;
  for (const face of faces) {
    doc.font(face).fontSize(face.startsWith("mono") ? size * 0.92 : size);
    height = Math.max(height, doc.heightOfString(text, { width, lineGap }));
  }
  return height;
}
