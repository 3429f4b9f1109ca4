import { describe, expect, it } from "vitest";
import { describeMissing, missingGlyphs } from "../document/glyph-coverage.js";
import { familyOrder } from "../text/fallback-fonts.js";
import { coverage, fontRuns } from "../text/font-runs.js";
import { fonts } from "./fonts.js";

describe("fontRuns", () => {
  it("keeps Latin, Greek and Cyrillic in the style's DejaVu face", () => {
    expect(fontRuns("Hi, Αθήνα 2026! Москва.", "bold").map((r) => [r.name, r.text])).toEqual([["bold", "Hi, Αθήνα 2026! Москва."]]);
  });

  it("sets other scripts in Noto, spaces and digits in DejaVu", () => {
    expect(fontRuns("Hi مرحبا 12 文字", "regular").map((r) => [r.name, r.text])).toEqual([
      ["regular", "Hi "],
      ["noto-sans-arabic-arabic-400", "مرحبا"],
      ["regular", " 12 "],
      ["noto-sans-sc-118-400", "文"],
      ["noto-sans-sc-117-400", "字"],
    ]);
  });

  it("takes the bold Noto face for bold text where one ships", () => {
    expect(fontRuns("हिन्दी", "bold").map((r) => r.name)).toEqual(["noto-sans-devanagari-devanagari-700"]);
  });

  // Yi's file also has the ideographic comma and full stop: the CJK families come first in every order.
  it.each([
    [undefined, "noto-sans-sc"],
    ["ja", "noto-sans-jp"],
    ["ko", "noto-sans-kr"],
    ["zh-TW", "noto-sans-tc"],
  ])("sets CJK punctuation of a %s document in its CJK family, and Yi in Yi's", (language, family) => {
    const [comma, yi] = fontRuns("、ꆈ", "regular", familyOrder(language));
    expect(comma!.name).toMatch(new RegExp(`^${family}-`));
    expect(yi!.name).toBe("noto-sans-yi-yi-400");
  });
});

describe("glyph coverage of the shipped fonts", () => {
  it("covers Latin with diacritics, Greek and Cyrillic in every DejaVu face", () => {
    const sample = "ĀăĄćČďĐęĚğĦįĲķĺŁńŇőŒřŚşŠţŦůŰųŴŷŸźŽ ΑΒΓΔΕΖΗΘαβγδεζηθάέήίόύώ АБВГДЕЁЖЗабвгдеёжзЄІЇҐ";
    for (const [face, font] of Object.entries(fonts())) expect(missingGlyphs(sample, font), face).toEqual([]);
  });

  it("covers every supported script with the fallbacks", () => {
    const sample =
      "東京 ひらがな カタカナ 한국어 繁體 مرحبا پ ے שלום हिन्दी বাংলা தமிழ் తెలుగు ગુજરાતી ਪੰਜਾਬੀ ಕನ್ನಡ മലയാളം ไทย Հայ ქართ 😀🎉 " + "ሰላም བཀྲ་ ހެލޯ ܫܠܡܐ ߊߟߎ 𞤀𞤣𞤤𞤢𞤥 ⴰⵣⵓⵍ ᐃᓄᒃᑎᑐᑦ ᏣᎳᎩ ᱥᱟᱱᱛᱟᱲᱤ ꯃꯤꯇꯩꯂꯣꯟ ꕙꔤ ꆈꌠ";
    for (const [face, source] of Object.entries(coverage())) expect(missingGlyphs(sample, source), face).toEqual([]);
  });

  it("names what no font covers, once each, with its script", () => {
    const missing = missingGlyphs("ᠮᠣᠩ ᠮ \uE000", coverage().regular);
    expect(describeMissing(missing)).toBe('"ᠮ" (U+182E, Mongolian script), "ᠣ" (U+1823, Mongolian script), "ᠩ" (U+1829, Mongolian script), "\uE000" (U+E000, private use)');
  });

  it("reads characters beyond the BMP whole, and skips the controls that draw nothing", () => {
    const missing = missingGlyphs("a\u{1D11E}\u200D\t\uFE0F\u{1D11E}b\u{10380}", coverage().regular);
    expect(missing).toEqual([
      { char: "\u{1D11E}", codePoint: 0x1d11e },
      { char: "\u{10380}", codePoint: 0x10380 },
    ]);
  });
});
