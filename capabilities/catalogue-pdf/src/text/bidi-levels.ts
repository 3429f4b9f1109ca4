import bidiFactory, { type EmbeddingLevels } from "bidi-js";

const bidi = bidiFactory();

// A character of each bidi class outside the BMP has, standing in for its two UTF-16 units: bidi-js reads
// a string unit by unit and takes a surrogate for a left-to-right letter, so an Adlam word (U+1E900…) ran
// left to right and an emoji (a neutral) was a strong left-to-right character in right-to-left text.
const STAND_IN: Record<string, string> = { L: "a", R: "\u05D0", AL: "\u0627", EN: "0", ES: "+", ET: "#", AN: "\u0660", CS: ",", NSM: "\u0300", BN: "\u00AD", WS: " ", ON: "!" };
const SURROGATE = /[\uD800-\uDBFF]/;

/** The embedding levels of `text` by the Unicode Bidirectional Algorithm (bidi-js), one per UTF-16 unit. */
export function embeddingLevels(text: string, direction: "ltr" | "rtl" | "auto"): EmbeddingLevels {
  return bidi.getEmbeddingLevels(SURROGATE.test(text) ? withStandIns(text) : text, direction);
}

function withStandIns(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i)!;
    if (codePoint <= 0xffff) {
      out += text[i];
      continue;
    }
    const unit = STAND_IN[bidi.getBidiCharTypeName(String.fromCodePoint(codePoint))] ?? "!";
    out += unit + unit;
    i++;
  }
  return out;
}
