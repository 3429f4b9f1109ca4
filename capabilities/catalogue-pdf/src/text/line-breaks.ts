// Where a line of text may end. UAX #14 (the linebreak package pdfkit uses too) gives the breaks at spaces,
// between ideographs and after hyphens, but none inside Thai, Lao, Khmer or Myanmar, which are written
// without spaces between words: there the words come from ICU's dictionaries (Intl.Segmenter, in Node's
// full ICU), as a reader of those scripts breaks lines.
import LineBreaker from "linebreak";

/** A place a line may end: before text[position]; `required` after a line feed and its kin. */
export interface LineBreak {
  position: number;
  required: boolean;
}

/** The scripts written without spaces between words that the fonts cover (UAX #14 line break class SA). */
const SCRIPTS = String.raw`\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}`;
const UNSPACED = new RegExp(`[${SCRIPTS}]`, "u");
/**
 * A word of those scripts may start here: a letter of one, not a repetition or abbreviation sign (Thai ๆ
 * and ฯ, Lao ໆ and ຯ), which stay with the word before them.
 */
const WORD_START = new RegExp(String.raw`[[${SCRIPTS}]&&[\p{Lo}--[\u0E2F\u0EAF]]]`, "v");
/** A word of them may end here: a letter or a mark of one (a vowel sign, a tone mark, a final). */
const WORD_END = new RegExp(String.raw`[[${SCRIPTS}]&&[\p{Lo}\p{M}]]`, "v");

/** The signs that join two consonants into one cluster: the Indic viramas, Sinhala's al-lakuna, Myanmar's virama, Khmer's coeng. */
const LINKER = /[\u094D\u09CD\u0A4D\u0ACD\u0B4D\u0BCD\u0C4D\u0CCD\u0D4D\u0DCA\u1039\u17D2]/;

/** ICU's word segmenter, made at the first text that needs it: its rules cost memory a Latin letter never needs. */
let words: Intl.Segmenter | undefined;

/** Whether text has a character of a script written without spaces between words. */
export function hasUnspacedScript(text: string): boolean {
  return UNSPACED.test(text);
}

/** The places lines of `text` may end, in order; the last is text.length. */
export function* lineBreaks(text: string): Generator<LineBreak> {
  const breaker = new LineBreaker(text);
  // Most text (Arabic, Chinese, Devanagari) has none of those scripts: no piece of it is looked at again.
  const unspaced = UNSPACED.test(text);
  let last = 0;
  for (let found = breaker.nextBreak(); found; found = breaker.nextBreak()) {
    // Korean is written with spaces between words and set breaking there only (CSS's keep-all): UAX #14
    // lets a line break between any two syllables ("창" / "제하였습니다") and after a number ("1443" / "년에").
    if (!found.required && inKoreanWord(text[found.position - 1] ?? "", text[found.position] ?? "")) continue;
    if (unspaced && UNSPACED.test(text.slice(last, found.position))) yield* betweenWords(text, last, found.position);
    yield found;
    last = found.position;
  }
}

const HANGUL = /[\u1100-\u11FF\u3130-\u318F\uA960-\uA97F\uAC00-\uD7FF]/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** Whether a break between `before` and `after` would be inside a Korean word: Hangul beside a letter or digit. */
function inKoreanWord(before: string, after: string): boolean {
  return (HANGUL.test(before) && LETTER_OR_DIGIT.test(after)) || (LETTER_OR_DIGIT.test(before) && HANGUL.test(after));
}

/** Breaks strictly inside text[from, to) between two words of a script written without spaces. */
function* betweenWords(text: string, from: number, to: number): Generator<LineBreak> {
  words ??= new Intl.Segmenter(undefined, { granularity: "word" });
  for (const { index } of words.segment(text.slice(from, to))) {
    if (index === 0) continue;
    const at = from + index;
    // These scripts are in the Basic Multilingual Plane: one code unit either side is one character. ICU
    // may end a word it does not know after a coeng (ស្ត្|រ), inside a cluster: not a break.
    const before = text[at - 1]!;
    if (WORD_END.test(before) && !LINKER.test(before) && WORD_START.test(text[at]!)) yield { position: at, required: false };
  }
}

/**
 * A character with the marks that follow it, as [from, to) ranges of text[start, end); a virama or coeng
 * joins the consonant after it too (Devanagari क्ष, Khmer ខ្ម are one cluster, drawn as one), until it
 * is {@link MAX_CLUSTER} code units long.
 */
export function* clusters(text: string, start: number, end: number): Generator<[number, number]> {
  let from = start;
  for (let i = start; i < end; ) {
    const next = i + (text.codePointAt(i)! > 0xffff ? 2 : 1);
    const after = next < end && next - from < MAX_CLUSTER ? String.fromCodePoint(text.codePointAt(next)!) : "";
    if (!after || !(MARK.test(after) || (LINKER.test(text[i]!) && LETTER.test(after)))) {
      yield [from, next];
      from = next;
    }
    i = next;
  }
}

const MARK = /[\p{M}\u200C\u200D]/u;
/**
 * Code units past which a cluster is cut all the same: written clusters are a few characters (स्त्री,
 * ស្ត្រី: 6), and a run of thousands of joined consonants must still break somewhere.
 */
const MAX_CLUSTER = 16;
const LETTER = /\p{L}/u;
