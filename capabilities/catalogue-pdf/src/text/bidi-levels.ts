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

type Direction = "ltr" | "rtl" | "auto";

/**
 * The embedding levels of `text` whose paragraphs (its lines: a line feed ends a bidi paragraph) may each
 * take their own base direction, `directionOf(paragraph)`.
 */
export function levelsByParagraph(text: string, directionOf: (paragraph: string) => Direction): EmbeddingLevels {
  const paragraphs = text.split(/(?<=\n)/);
  const directions = paragraphs.map(directionOf);
  if (directions.every((d) => d === directions[0])) return embeddingLevels(text, directions[0]!);
  const levels = new Uint8Array(text.length);
  const found: EmbeddingLevels["paragraphs"] = [];
  let at = 0;
  paragraphs.forEach((paragraph, i) => {
    const own = embeddingLevels(paragraph, directions[i]!);
    levels.set(own.levels.subarray(0, paragraph.length), at);
    for (const p of own.paragraphs) found.push({ start: p.start + at, end: p.end + at, level: p.level });
    at += paragraph.length;
  });
  return { levels, paragraphs: found };
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
