import { describe, expect, it } from "vitest";
import { describeMissing, missingGlyphs } from "../document/glyph-coverage.js";
import { fonts, splitByScript } from "./fonts.js";

describe("splitByScript", () => {
  it("splits Latin, Greek and Cyrillic, keeping digits and punctuation with the text before them", () => {
    expect(splitByScript("Hi, Αθήνα 2026! Москва.")).toEqual([
      { text: "Hi, ", script: "latin" },
      { text: "Αθήνα 2026! ", script: "greek" },
      { text: "Москва.", script: "cyrillic" },
    ]);
  });

  it("puts leading punctuation in the Latin instance", () => {
    expect(splitByScript("« Ω »")).toEqual([
      { text: "« ", script: "latin" },
      { text: "Ω »", script: "greek" },
    ]);
  });
});

describe("glyph coverage of the embedded fonts", () => {
  it("covers Latin with diacritics, Greek and Cyrillic in every face", () => {
    const sample = "ĀăĄćČďĐęĚğĦįĲķĺŁńŇőŒřŚşŠţŦůŰųŴŷŸźŽ ΑΒΓΔΕΖΗΘαβγδεζηθάέήίόύώ АБВГДЕЁЖЗабвгдеёжзЄІЇҐ";
    for (const [face, font] of Object.entries(fonts())) expect(missingGlyphs(sample, font), face).toEqual([]);
  });

  it("names what is missing, once each, and flags right-to-left scripts", () => {
    const missing = missingGlyphs("東京東 שלום", fonts().regular);
    expect(describeMissing(missing)).toBe('"東" (U+6771), "京" (U+4EAC), "ש" (U+05E9), "ל" (U+05DC), "ו" (U+05D5), "ם" (U+05DD)');
    expect(missing.filter((m) => m.rightToLeft)).toHaveLength(4);
  });
});
