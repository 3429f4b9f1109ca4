// Which way text runs, from its strong (directional) characters, as the Unicode Bidirectional Algorithm
// reads them: what shaping, bidi layout and a document without a `language` go by.

// Right-to-left strong characters (Hebrew, Arabic, Syriac, Thaana, N'Ko, Adlam and their presentation forms):
// a run holding one is shaped right to left, and HarfBuzz then returns its glyphs in visual order. Not
// their digits, number signs and separators, which the Unicode Bidirectional Algorithm sets left to right
// (Arabic-Indic ١٩٨٥ and Persian ۱۴۰۲ read as written), nor their marks, which follow their letter.
const RTL = /[[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]--[\p{Nd}\p{M}\u0600-\u0605\u0609\u060A\u060C\u066A-\u066C\u06DD\u08E2\u{10E60}-\u{10E7E}]]/v;
// Left-to-right letters: every letter outside those blocks (Adlam's, U+1E900…, are right-to-left).
const LTR = /[\p{L}--[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]]/v;

/** Whether `text` has a right-to-left letter. */
export function hasRightToLeft(text: string): boolean {
  return RTL.test(text);
}

const RTL_ALL = new RegExp(RTL.source, "gv");
const LTR_ALL = new RegExp(LTR.source, "gv");

/** Whether most of the strong (directional) letters of `texts` are right-to-left ones. */
export function mostlyRightToLeft(texts: readonly string[]): boolean {
  let balance = 0;
  for (const text of texts) balance += (text.match(RTL_ALL)?.length ?? 0) - (text.match(LTR_ALL)?.length ?? 0);
  return balance > 0;
}

/**
 * A paragraph's base direction: the one its letters run in when more than twice as many run that way as
 * the other, else the document's (`near`). Not UAX #9's first strong character (P2): a Hebrew sentence
 * that opens with a brand name ("Google הודיעה…") or an Arabic heading that opens with a flag is still
 * right to left, an English one that opens with an Arabic word left to right, and a short item with a
 * word of each ("بند Item") goes the document's way (UAX #9 lets a higher-level protocol decide, HL1).
 */
export function paragraphDirection(text: string, near: "ltr" | "rtl"): "ltr" | "rtl" {
  const rtl = text.match(RTL_ALL)?.length ?? 0;
  const ltr = text.match(LTR_ALL)?.length ?? 0;
  return rtl > 2 * ltr ? "rtl" : ltr > 2 * rtl ? "ltr" : near;
}

/** "rtl" when the first strong character of `text` is right-to-left. */
export function directionOf(text: string): "ltr" | "rtl" {
  const rtl = RTL.exec(text)?.index ?? -1;
  if (rtl === -1) return "ltr";
  const ltr = LTR.exec(text)?.index ?? -1;
  return ltr === -1 || rtl < ltr ? "rtl" : "ltr";
}
