import { describe, expect, it } from "vitest";
import { clusters, lineBreaks } from "./line-breaks.js";

/** text cut where lines may end. */
const pieces = (text: string) => {
  const out: string[] = [];
  let last = 0;
  for (const { position } of lineBreaks(text)) {
    out.push(text.slice(last, position));
    last = position;
  }
  return out;
};
const cut = (text: string) => [...clusters(text, 0, text.length)].map(([a, b]) => text.slice(a, b));

describe("lineBreaks", () => {
  it("breaks between the words of Thai, Lao, Khmer and Myanmar, which have no spaces between them", () => {
    expect(pieces("ภาษาไทยเป็นภาษา")).toEqual(["ภาษา", "ไทย", "เป็น", "ภาษา"]);
    expect(pieces("ພາສາລາວເປັນພາສາ")).toEqual(["ພາສາ", "ລາວ", "ເປັນ", "ພາສາ"]);
    expect(pieces("ភាសាខ្មែរគឺជាភាសា")).toEqual(["ភាសាខ្មែរ", "គឺជា", "ភាសា"]);
    expect(pieces("မြန်မာဘာသာစကားသည်")).toEqual(["မြန်မာဘာသာ", "စကား", "သည်"]);
  });

  it("breaks Korean between words only, as Chinese and Japanese between any two characters", () => {
    expect(pieces("세종대왕이 1443년에 창제하였습니다.")).toEqual(["세종대왕이 ", "1443년에 ", "창제하였습니다."]);
    expect(pieces("中文字")).toEqual(["中", "文", "字"]);
  });

  it("keeps a repetition or abbreviation sign with its word, and punctuation with the word before it", () => {
    expect(pieces("ดีๆ กรุงเทพฯ สวย")).toEqual(["ดีๆ ", "กรุงเทพฯ ", "สวย"]);
    expect(pieces("ភាសា។ ok")).toEqual(["ភាសា។ ", "ok"]);
  });

  it("never breaks after a coeng, where ICU ends a word it does not know", () => {
    for (const piece of pieces("ស្ត្រ".repeat(6))) expect(piece).not.toMatch(/\u17D2$/);
  });

  it("leaves other text to UAX #14: spaces, ideographs, required breaks", () => {
    expect(pieces("Hello world 中文")).toEqual(["Hello ", "world ", "中", "文"]);
    expect([...lineBreaks("a\nb")]).toEqual([
      { position: 2, required: true },
      { position: 3, required: false },
    ]);
  });
});

describe("clusters", () => {
  it("keeps marks with their letter, and the consonant after a virama or coeng with it", () => {
    expect(cut("क्षत्रिय")).toEqual(["क्ष", "त्रि", "य"]);
    expect(cut("ខ្មែរ")).toEqual(["ខ្មែ", "រ"]);
    expect(cut("ab")).toEqual(["a", "b"]);
  });

  it("cuts a run of joined consonants longer than any written cluster", () => {
    const pieces = cut("क्".repeat(300) + "क");
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(17);
    expect(pieces.join("")).toBe("क्".repeat(300) + "क");
  });

  it("lets a line end after a virama that ends a word (before a space or a ZWNJ)", () => {
    expect(cut("क् ख")).toEqual(["क्", " ", "ख"]);
    expect(cut("क्\u200Cष")).toEqual(["क्\u200C", "ष"]);
  });
});
