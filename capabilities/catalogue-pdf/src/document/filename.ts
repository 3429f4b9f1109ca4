import { sliceWhole } from "@selu-catalogue/kit";

/** The longest default name, in UTF-16 units before `.pdf`. */
const MAX_SLUG = 60;

/**
 * "Q3 Report: Zürich" → "q3-report-zurich.pdf". Accents come off Latin, Greek and Cyrillic letters (a
 * name as plain as its words allow), while every other script keeps its marks: Devanagari's and Thai's
 * vowel signs, Arabic's hamza and Japanese voicing marks are letters of the word, not decoration
 * ("भारतीय" lost them once and became "भरतय"). A long title is cut after a whole word.
 */
export function filenameFrom(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, "$1")
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
    .replace(/^[-\p{M}]+|-+$/gu, "");
  return `${shortened(slug) || "document"}.pdf`;
}

/** `slug` within MAX_SLUG, cut at the last word border when one is in its second half. */
function shortened(slug: string): string {
  if (slug.length <= MAX_SLUG) return slug;
  const cut = sliceWhole(slug, MAX_SLUG + 1);
  const border = cut.lastIndexOf("-");
  return border >= MAX_SLUG / 2 ? cut.slice(0, border) : sliceWhole(slug, MAX_SLUG).replace(/-+$/, "");
}
