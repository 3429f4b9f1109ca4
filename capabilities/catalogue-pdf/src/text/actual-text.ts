import type { Doc } from "../render/doc.js";

/**
 * Opens a marked-content span whose ActualText is `text` (PDF 32000-1, 14.9.4): readers that copy or
 * search (poppler's pdftotext, Acrobat) take these characters instead of the glyphs' own mappings, which
 * can't say "these glyphs, drawn in this order, are that syllable" (a reordered Indic cluster). Close it
 * with {@link endActualText}.
 */
export function beginActualText(doc: Doc, text: string): void {
  doc.addContent(`/Span <</ActualText <FEFF${utf16Hex(text)}>>> BDC`);
}

/** Closes the span opened by {@link beginActualText}. */
export function endActualText(doc: Doc): void {
  doc.addContent("EMC");
}

function utf16Hex(text: string): string {
  let hex = "";
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).padStart(4, "0");
  return hex;
}

// Scripts whose glyphs don't map one to one, in order, onto their characters: Indic, Tibetan, Meetei
// Mayek and Southeast Asian scripts (reordering, conjuncts, stacked marks). Right-to-left text is left to
// its glyphs' mappings: poppler rebuilds right-to-left lines from them, and reverses an ActualText it
// takes for visual order.
export const COMPLEX = /[\u0900-\u0DFF\u0E00-\u0EFF\u0F00-\u0FFF\u1000-\u109F\u1780-\u17FF\uAAE0-\uAAFF\uABC0-\uABFF]/u;

/**
 * Makes every text fragment pdfkit draws in a complex script carry its ActualText, by wrapping the
 * document's `_fragment` (pdfkit's one place that turns a line's text into glyphs). The span goes inside
 * the text object, after its position is set: poppler places the ActualText where the span starts.
 */
export function markComplexFragments(doc: Doc): void {
  const target = doc as unknown as { _fragment: (text: string, ...rest: unknown[]) => unknown; addContent: (data: string) => Doc };
  const fragment = target._fragment.bind(doc);
  const addContent = target.addContent.bind(doc);
  target._fragment = (text: string, ...rest: unknown[]) => {
    const plain = `${text}`.replace(/\n/g, "");
    if (!COMPLEX.test(plain)) return fragment(text, ...rest);
    let open = false;
    target.addContent = (data: string) => {
      if (data === "ET" && open) {
        addContent("EMC");
        open = false;
      }
      addContent(data);
      if (/ Tf$/.test(data) && !open) {
        beginActualText(doc, plain);
        open = true;
      }
      return doc;
    };
    try {
      return fragment(text, ...rest);
    } finally {
      target.addContent = addContent;
    }
  };
}
