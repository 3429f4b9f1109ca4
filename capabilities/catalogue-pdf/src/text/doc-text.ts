import type { Doc } from "../render/doc.js";
import { familyOrder, type FamilyId } from "./fallback-fonts.js";
import type { FontRun } from "./font-runs.js";

/** What a document's text setting needs besides pdfkit: the fallback order and the fonts registered. */
interface DocText {
  order: readonly FamilyId[];
  rtl: boolean;
  registered: Set<string>;
}

const contexts = new WeakMap<Doc, DocText>();

// Languages written right to left: their lists, tables and quotes are mirrored, and a paragraph without
// letters (numbers, punctuation) runs right to left.
const RTL_LANGUAGES = /^(ar|arc|ckb|dv|fa|he|iw|ks|ps|sd|ug|ur|yi)(-|$)/i;

/**
 * Sets up a document for the text of `language` (a BCP 47 tag, or none). Without a language, `textRtl`
 * (most of its letters are right-to-left ones) says which way it runs.
 */
export function attachText(doc: Doc, language: string | undefined, textRtl = false): void {
  const rtl = language === undefined ? textRtl : RTL_LANGUAGES.test(language);
  contexts.set(doc, { order: familyOrder(language), rtl, registered: new Set() });
}

/** The document's text settings (defaults for a document set up without {@link attachText}). */
export function textOf(doc: Doc): DocText {
  let context = contexts.get(doc);
  if (!context) {
    context = { order: familyOrder(undefined), rtl: false, registered: new Set() };
    contexts.set(doc, context);
  }
  return context;
}

/**
 * Whether the document runs right to left (by its language, or without one by its letters): its lists,
 * tables and quotes are then mirrored (markers, first column and quote bar on the right), and the text in
 * list items and cells starts at their right edge, whichever way it runs itself.
 */
export function rightToLeft(doc: Doc): boolean {
  return textOf(doc).rtl;
}

/** Selects a run's font at `size`, registering it with the document on first use (fonts load lazily). */
export function useFont(doc: Doc, run: Pick<FontRun, "name" | "font">, size: number): Doc {
  const { registered } = textOf(doc);
  if (!registered.has(run.name)) {
    doc.registerFont(run.name, run.font as unknown as string);
    registered.add(run.name);
  }
  return doc.font(run.name).fontSize(size);
}
