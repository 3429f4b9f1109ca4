import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { woffToSfnt } from "../src/text/woff.js";
import { drawnRuns, hbShapeOutlines, pageContent } from "./support/glyphs.js";
import { capabilityDir, startPdf, type PdfHarness } from "./support/harness.js";
import { flat, pdfFonts, pdfText, pdfWords } from "./support/poppler.js";
import { difference, readReference, titleInk, writeReference } from "./support/reference-image.js";

// Every script end to end: rendered by the production entrypoint over gRPC, read back with poppler, and
// the shaped glyphs compared with an independent HarfBuzz (Debian's hb-shape).
let pdf: PdfHarness;
beforeAll(async () => {
  pdf = await startPdf();
}, 30_000);
afterAll(() => pdf?.stop());

const render = async (language: string, paragraphs: string[]) => {
  const result = await pdf.ok("create_pdf_document", { title: paragraphs[0]!.slice(0, 12), language, sections: [{ heading: paragraphs[0]!.slice(0, 8), content: paragraphs }] });
  return pdf.bytes(result);
};

// pdftotext marks right-to-left stretches with bidi embedding controls; the characters are what counts.
const logical = (text: string) => flat(text.replace(/[\u200E\u200F\u202A-\u202E]/g, ""));

// Letters and digits only: poppler rebuilds right-to-left lines from glyph positions and may put a comma
// or full stop at a direction change on the other side of a space, and after a Bengali word ending in a
// below-base form it sees a space before the next punctuation (a known gap, see the README).
const letters = (text: string) => text.replace(/[\p{P}\s\u200E\u200F\u202A-\u202E]/gu, "");

// One line per script, in a document of its language: each must come back exactly as written.
const SAMPLES: [string, string, string][] = [
  ["Chinese (Simplified)", "zh", "中文排版：你好，世界。这是一个测试。"],
  ["Chinese (Traditional)", "zh-TW", "繁體中文：臺灣的資料處理。"],
  ["Japanese", "ja", "日本語の文章：こんにちは、カタカナ。"],
  ["Korean", "ko", "한국어 문서: 안녕하세요, 세계."],
  ["Arabic", "ar", "مرحبا بالعالم، هذا اختبار 2026."],
  ["Arabic with Arabic-Indic digits", "ar", "في عام ١٩٨٥ بلغ العدد ٢٣٤٥ نسمة."],
  ["Persian", "fa", "سلام دنیا، این یک آزمایش است."],
  ["Persian with Persian digits", "fa", "من در سال ۱۴۰۲ به تهران رفتم."],
  ["Urdu", "ur", "ہیلو دنیا، یہ ایک امتحان ہے۔"],
  ["Hebrew", "he", "שלום עולם, זה מבחן 42."],
  ["Devanagari", "hi", "नमस्ते दुनिया, यह क्षत्रिय परीक्षा है।"],
  ["Bengali", "bn", "হ্যালো বিশ্ব, এটি একটি পরীক্ষা।"],
  ["Tamil", "ta", "வணக்கம் உலகம், இது ஒரு சோதனை."],
  ["Telugu", "te", "హలో ప్రపంచం, ఇది ఒక పరీక్ష."],
  ["Gujarati", "gu", "નમસ્તે દુનિયા, આ એક પરીક્ષણ છે."],
  ["Gurmukhi", "pa", "ਸਤਿ ਸ੍ਰੀ ਅਕਾਲ ਦੁਨੀਆ, ਇਹ ਇੱਕ ਟੈਸਟ ਹੈ।"],
  ["Kannada", "kn", "ನಮಸ್ಕಾರ ಪ್ರಪಂಚ, ಇದು ಒಂದು ಪರೀಕ್ಷೆ."],
  ["Malayalam", "ml", "ഹലോ ലോകം, ഇത് ഒരു പരീക്ഷണം ആണ്."],
  ["Oriya", "or", "ନମସ୍କାର ବିଶ୍ୱ, ଏହା ଏକ ପରୀକ୍ଷା।"],
  ["Sinhala", "si", "ආයුබෝවන් ලෝකය, මෙය පරීක්ෂණයකි."],
  ["Thai", "th", "สวัสดีชาวโลก นี่คือการทดสอบ"],
  ["Lao", "lo", "ສະບາຍດີ ໂລກ ນີ້ແມ່ນການທົດສອບ"],
  ["Khmer", "km", "សួស្តី ពិភពលោក នេះជាការសាកល្បង"],
  ["Myanmar", "my", "မင်္ဂလာပါ ကမ္ဘာ ဒါက စမ်းသပ်မှု ဖြစ်တယ်။"],
  ["Amharic (Ethiopic)", "am", "ሰላም ለዓለም፣ ይህ የሙከራ ሰነድ ነው።"],
  ["Tigrinya (Ethiopic)", "ti", "ሰላም ዓለም፡ እዚ ፈተና እዩ።"],
  ["Tibetan", "bo", "བཀྲ་ཤིས་བདེ་ལེགས། སྒྲུབ་བརྒྱུད་"],
  ["Syriac", "syr", "ܫܠܡܐ ܥܠܡܐ، ܗܢܐ ܢܣܝܘܢܐ ܗܘ."],
  ["Tifinagh", "zgh", "ⴰⵣⵓⵍ ⴼⵍⵍⴰⵡⵏ ⵜⴰⵎⴰⵣⵉⵖⵜ"],
  ["Canadian syllabics (Inuktitut)", "iu", "ᐊᐃᓐᖓᐃ ᓄᓇᕗᑦ ᐃᓄᒃᑎᑐᑦ"],
  ["Cherokee", "chr", "ᎣᏏᏲ ᏣᎳᎩ ᎦᏬᏂᎯᏍᏗ"],
  ["Ol Chiki (Santali)", "sat", "ᱥᱟᱱᱛᱟᱲᱤ ᱯᱟᱹᱨᱥᱤ ᱫᱚ ᱵᱮᱥ ᱜᱮᱭᱟ"],
  ["Meetei Mayek (Manipuri)", "mni", "ꯃꯤꯇꯩꯂꯣꯟ ꯑꯁꯤ ꯑꯐꯕ ꯂꯣꯟ ꯑꯃꯅꯤ꯫"],
  ["Vai", "vai", "ꕙꔤ ꕞ ꗏ ꔳ ꕯ"],
  ["Yi", "ii", "ꆈꌠꁱꂷ ꉢ ꀋꉆ ꌠ。"],
  ["Armenian", "hy", "Բարեւ աշխարհ, սա փորձարկում է։"],
  ["Georgian", "ka", "გამარჯობა მსოფლიო, ეს არის ტესტი."],
  ["emoji", "en", "Party 🎉 time 😀 thumbs 👍 done"],
  ["emoji sequences", "en", "Keys 1️⃣ #️⃣, coder 👩🏽‍💻, flags 🏳️‍🌈 🇩🇪, love ❤️ ❤️‍🔥, pirate 🏴‍☠️ done"],
];

const EXACT_PUNCTUATION_GAP = new Set(["ar", "fa", "ur", "he", "bn", "syr"]);

describe("every script", () => {
  it.each(SAMPLES)("%s comes back from pdftotext exactly as written, fonts embedded and subset", async (_name, language, sample) => {
    const bytes = await render(language, [sample]);
    if (EXACT_PUNCTUATION_GAP.has(language)) expect(letters(pdfText(bytes))).toContain(letters(sample));
    else expect(logical(pdfText(bytes))).toContain(sample);
    const fonts = pdfFonts(bytes);
    expect(fonts.length).toBeGreaterThan(0);
    for (const font of fonts) {
      expect(font.embedded, font.name).toBe(true);
      expect(font.name, "subset tag").toMatch(/^[A-Z]{6}\+/);
    }
  });

  // poppler puts a mark of right-to-left text before its letter (Arabic's harakat too): the letters and
  // their order must come back, the marks are checked against hb-shape below.
  it("Thaana (Dhivehi) comes back from pdftotext with its letters as written", async () => {
    const sample = "ހެލޯ ދުނިޔެ، މިއީ ޓެސްޓެކެވެ.";
    const bases = (text: string) => letters(text).replace(/\p{M}/gu, "");
    expect(bases(pdfText(await render("dv", [sample])))).toContain(bases(sample));
  });

  // poppler doesn't count N'Ko and Adlam as right-to-left: it reads their glyphs left to right as drawn (and
  // may cut a word in two). Read from the right, the letters must come in the order written.
  it.each([
    ["N'Ko", "nqo", "ߊߟߎ ߞߊ߬ ߛߊ߬ߣߌ߲߬"],
    ["Adlam", "ff", "𞤀𞤣𞤤𞤢𞤥 𞤆𞤵𞤤𞤢𞤪 𞤼𞤫𞤧𞤼"],
  ])("sets %s right to left", async (_name, language, sample) => {
    const bases = (text: string) => Array.from(text.replace(/[\p{M}\s]/gu, ""));
    const line = pdfWords(await render(language, ["Title", sample])).filter((w) => w.text !== "Title" && w.yMax < w.pageHeight - 60);
    const fromTheRight = line.sort((a, b) => b.xMax - a.xMax).flatMap((w) => bases(w.text).reverse());
    expect(fromTheRight.join("")).toBe(bases(sample).join(""));
  });

  it("keeps the lines of a long right-to-left paragraph in order, each read right to left", async () => {
    const sentence = "هذه جملة عربية طويلة رقم 12 تتكرر عدة مرات. ";
    const bytes = await render("ar", [sentence.repeat(10)]);
    expect(
      pdfText(bytes)
        .split("\n")
        .filter((l) => l.includes("جملة")).length,
    ).toBeGreaterThan(2);
    expect(letters(pdfText(bytes))).toContain(letters(sentence.repeat(10)));
  });

  it("keeps a right-to-left paragraph with a number and an English phrase in logical order", async () => {
    const sample = "السعر 1250 ريال (تقريبا) حسب Selu Catalogue اليوم.";
    expect(letters(pdfText(await render("ar", [sample])))).toContain(letters(sample));
  });

  it("sets a Chinese paragraph over several lines, breaking between ideographs and never before closing punctuation", async () => {
    const sentence = "这是一个很长的中文段落，用来测试换行。";
    const bytes = await render("zh", [sentence.repeat(12)]);
    const lines = pdfText(bytes)
      .split("\n")
      .filter((l) => l.includes("段落") || l.includes("测试"));
    expect(lines.length).toBeGreaterThan(2);
    for (const line of lines) expect(line, "no line starts with closing punctuation").not.toMatch(/^[，。、）」]/);
    expect(logical(pdfText(bytes)).replace(/ /g, "")).toContain(sentence.repeat(12));
  });
});

function withPdf<T>(bytes: Uint8Array, read: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "pdf-rtl-"));
  try {
    writeFileSync(join(dir, "doc.pdf"), bytes);
    return read(join(dir, "doc.pdf"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const require = createRequire(import.meta.url);
const noto = (family: string, file: string) => woffToSfnt(readFileSync(join(dirname(require.resolve(`@fontsource/${family}/package.json`)), "files", file)));
const dejavu = () => readFileSync(join(dirname(require.resolve("dejavu-fonts-ttf/package.json")), "ttf", "DejaVuSans.ttf"));

describe("shaping matches an independent HarfBuzz (hb-shape)", () => {
  const cases: [string, string, string, () => Buffer][] = [
    ["an Arabic word (joining forms)", "ar", "العربية", () => noto("noto-sans-arabic", "noto-sans-arabic-arabic-400-normal.woff")],
    ["a Devanagari conjunct and reordered vowel sign", "hi", "क्षत्रिय", () => noto("noto-sans-devanagari", "noto-sans-devanagari-devanagari-400-normal.woff")],
    ["a Thai cluster with stacked marks", "th", "สวัสดี", () => noto("noto-sans-thai", "noto-sans-thai-thai-400-normal.woff")],
    ["a Tibetan stack of three consonants and a vowel sign", "bo", "སྒྲུབ", () => noto("noto-serif-tibetan", "noto-serif-tibetan-tibetan-400-normal.woff")],
    ["a Syriac word (joining forms)", "syr", "ܢܣܝܘܢܐ", () => noto("noto-sans-syriac", "noto-sans-syriac-syriac-400-normal.woff")],
    ["an N'Ko word with a tone mark (joining forms)", "nqo", "ߛߊ߬ߣߌ߲߬", () => noto("noto-sans-nko", "noto-sans-nko-nko-400-normal.woff")],
    ["an Adlam word (joining forms)", "ff", "𞤆𞤵𞤤𞤢𞤪", () => noto("noto-sans-adlam", "noto-sans-adlam-adlam-400-normal.woff")],
    ["a Thaana word with its vowel marks", "dv", "ދުނިޔެ", () => noto("noto-sans-thaana", "noto-sans-thaana-thaana-400-normal.woff")],
    ["a Meetei Mayek word with a vowel sign and the final consonant", "mni", "ꯃꯤꯇꯩꯂꯣꯟ", () => noto("noto-sans-meetei-mayek", "noto-sans-meetei-mayek-meetei-mayek-400-normal.woff")],
    ["the fi ligature", "en", "office", dejavu],
    // Emoji sequences come out as one glyph each from the one emoji file that has all their characters.
    ["a keycap", "en", "1️⃣", () => noto("noto-emoji", "noto-emoji-2-400-normal.woff")],
    ["a ZWJ sequence with a skin tone", "en", "👩🏽‍💻", () => noto("noto-emoji", "noto-emoji-8-400-normal.woff")],
    ["a ZWJ sequence of a symbol DejaVu also has", "en", "❤️‍🔥", () => noto("noto-emoji", "noto-emoji-9-400-normal.woff")],
  ];
  it.each(cases)("%s is drawn with hb-shape's glyphs", async (_name, language, word, font) => {
    const bytes = await render(language, [word]);
    const expected = hbShapeOutlines(font(), word);
    const drawn = (await drawnRuns(bytes)).map((r) => r.outlines);
    expect(drawn, `a run drawn as hb-shape's ${expected.length} glyphs`).toContainEqual(expected);
  });
});

// Where shaping shows, the rendered title is compared with a reference image a person looked at
// (test/fixtures/reference/*.png; UPDATE_REFERENCES=1 rewrites them, look at them before committing).
describe("rendered shaping matches the reference images", () => {
  const cases: [string, string, string][] = [
    ["arabic", "ar", "العربية لا"],
    ["devanagari", "hi", "क्षत्रिय हिन्दी"],
    ["thai", "th", "สวัสดี น้ำ"],
    ["ligature", "en", "office fluffy"],
  ];
  it.each(cases)("%s", async (name, language, text) => {
    const result = await pdf.ok("create_pdf_document", { title: text, language, sections: [{ heading: "x", content: ["x"] }] });
    const ink = titleInk(pdf.bytes(result));
    expect(ink.width, "the title has ink").toBeGreaterThan(40);
    const path = `${capabilityDir}/test/fixtures/reference/${name}.png`;
    if (process.env.UPDATE_REFERENCES) writeReference(path, ink);
    const reference = readReference(path);
    expect(reference, `${path} exists (UPDATE_REFERENCES=1 writes it)`).toBeDefined();
    expect(difference(ink, reference!)).toBeLessThan(0.01);
  });

  it("tells a wrongly shaped word apart (the comparison can fail)", async () => {
    const result = await pdf.ok("create_pdf_document", { title: "क ् ष त ् र ि य हिन्दी", language: "hi", sections: [{ heading: "x", content: ["x"] }] });
    expect(difference(titleInk(pdf.bytes(result)), readReference(`${capabilityDir}/test/fixtures/reference/devanagari.png`)!)).toBeGreaterThan(0.05);
  });
});

// Where pdftotext -bbox finds each word: the left edge and top of its box, in points.
const boxes = (bytes: Uint8Array) => {
  const html = withPdf(bytes, (path) => execFileSync("pdftotext", ["-bbox", path, "-"], { encoding: "utf8" }));
  return new Map([...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]+)<\/word>/g)].map((m) => [m[3]!, { x: Number(m[1]), y: Number(m[2]) }]));
};
const leftEdges = (bytes: Uint8Array) => new Map([...boxes(bytes)].map(([word, box]) => [word, box.x]));

describe("bold text in a family without a bold weight", () => {
  it("strokes the outlines of bold Chinese, Japanese and emoji as well as filling them, and copies out as written", async () => {
    const bold = await pdf.ok("create_pdf_document", { title: "季度报告", language: "zh", sections: [{ heading: "概述", content: ["这是**粗体**。日本語の**太字**。**🎉**"] }] });
    const content = await pageContent(pdf.bytes(bold));
    // Text render mode 2 (fill, then stroke) only inside the bold runs' text objects.
    expect(content.match(/\b2 Tr\b/g)?.length).toBeGreaterThanOrEqual(5);
    expect(logical(pdfText(pdf.bytes(bold)))).toContain("这是粗体。日本語の太字。🎉");
    const plain = await pdf.ok("create_pdf_document", { title: "Plain", language: "zh", sections: [{ heading: "Heading", content: ["这是普通文字。"] }] });
    expect(await pageContent(pdf.bytes(plain))).not.toMatch(/\b2 Tr\b/);
  });
});

describe("emoji whose colour is their meaning", () => {
  it("draws status circles, checks and crosses in their colours (the emoji font is monochrome), in text, tables and lists, and copies them out as written", async () => {
    const status = "Infra 🟢 on track, Apps 🟡 at risk, Data 🔴 off track ✅ done ❌ blocked";
    const args = { title: "Status", sections: [{ heading: "Now", content: [status, { type: "table", columns: ["Stream", "RAG"], rows: [["Infra", "🟢"]] }, { type: "list", items: ["🔴 Data"] }] }] };
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", args));
    const content = await pageContent(bytes);
    // Fill colours as pdfkit sets them (`r g b scn`, 0-1 per channel): green #1e8e3e, amber #c99400, red #d93025.
    const set = (stream: string) => [...stream.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) scn/g)].map((m) => [1, 2, 3].map((i) => Number(m[i])));
    const fills = (r: number, g: number, b: number, stream = content) => set(stream).filter((c) => [r, g, b].every((v, i) => Math.abs(c[i]! - v / 255) < 0.002)).length;
    expect(fills(0x1e, 0x8e, 0x3e)).toBeGreaterThanOrEqual(3);
    expect(fills(0xc9, 0x94, 0x00)).toBeGreaterThanOrEqual(1);
    expect(fills(0xd9, 0x30, 0x25)).toBeGreaterThanOrEqual(3);
    expect(flat(pdfText(bytes))).toContain(status);
    const plain = await pageContent(pdf.bytes(await pdf.ok("create_pdf_document", { title: "Plain", sections: [{ heading: "H", content: ["🎉 no status"] }] })));
    expect(fills(0x1e, 0x8e, 0x3e, plain)).toBe(0);
  });
});

describe("currency signs and symbols DejaVu lacks", () => {
  it("sets ₿ ₾ ₼ ⃀ from Noto Sans (bold too) and ⏻ ⌖ ⮕ 🗸 from Noto Sans Symbols 2, and copies them out as written", async () => {
    const text = "Bitcoin **₿ 0.25**, 2,700 ₾, 140 ₼, 100 ⃀; power ⏻, target ⌖, next ⮕, done 🗸.";
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", { title: "Prices in ₿", sections: [{ heading: "Rates", content: [text] }] }));
    expect(flat(pdfText(bytes))).toContain(text.replaceAll("**", ""));
    const fonts = (await drawnRuns(bytes)).map((run) => run.font);
    expect(fonts.some((font) => /NotoSans-Regular/.test(font))).toBe(true);
    expect(fonts.some((font) => /NotoSans-Bold/.test(font))).toBe(true);
    expect(fonts.some((font) => /NotoSansSymbols2/.test(font))).toBe(true);
  });
});

describe("punctuation in Chinese and Japanese text", () => {
  it("takes the ellipsis, quotes and dashes after CJK text from the CJK family, not DejaVu", async () => {
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", { title: "報告", language: "ja", page_numbers: false, sections: [{ heading: "注記", content: ["彼は言った……「“引用”」——以上。"] }] }));
    const fonts = (await drawnRuns(bytes)).map((run) => run.font);
    expect(fonts.some((font) => /NotoSansJP/i.test(font))).toBe(true);
    expect(fonts.filter((font) => /DejaVu/i.test(font))).toEqual([]);
  });
});

describe("italic text in a font without an italic", () => {
  it("slants Devanagari, Arabic and Chinese italic by 11°, and leaves Latin italic to DejaVu's own", async () => {
    const content = async (text: string) => pageContent(pdf.bytes(await pdf.ok("create_pdf_document", { title: "t", sections: [{ heading: "h", content: [text] }] })));
    // A skew of tan 11° in the text's transformation (pdfkit's oblique), once per slanted piece.
    const slant = /\b1 0 -0\.19438 1 /g;
    expect((await content("*इटैलिक हिन्दी* और सामान्य")).match(slant)?.length).toBeGreaterThanOrEqual(1);
    expect((await content("*هذا مائل* و*中文斜体*")).match(slant)?.length).toBeGreaterThanOrEqual(2);
    expect((await content("इटैलिक नहीं *Latin italic*")).match(slant)).toBeNull();
  });
});

describe("text in several fonts is measured in each", () => {
  it("gives a table row and a quote of wrapped Chinese the height of all their lines", async () => {
    const long = "这是一个很长的中文说明，用来测试表格单元格中的自动换行是否正确。".repeat(4);
    const result = await pdf.ok("create_pdf_document", {
      title: "表格",
      language: "zh",
      sections: [
        {
          heading: "测试",
          content: [
            {
              type: "table",
              columns: [{ header: "A" }, { header: "B" }],
              rows: [
                ["一", `${long} CELLEND`],
                ["ROWTWO", "短"],
              ],
            },
            { type: "quote", text: `${long} QUOTEEND` },
            "AFTER",
          ],
        },
      ],
    });
    const at = boxes(pdf.bytes(result));
    expect(at.get("ROWTWO")!.y).toBeGreaterThan(at.get("CELLEND")!.y + 5);
    expect(at.get("AFTER")!.y).toBeGreaterThan(at.get("QUOTEEND")!.y + 5);
    // Every line of the cell is there, in order.
    expect(logical(pdfText(pdf.bytes(result))).replace(/ /g, "")).toContain(`${long}CELLEND`);
  });

  // A paragraph of each script written without spaces, long enough for several lines.
  const UNSPACED: [string, string, string][] = [
    ["Thai", "th", "ภาษาไทยเป็นภาษาที่สวยงามมากและมีประวัติศาสตร์ยาวนานผู้คนหลายล้านคนใช้ภาษานี้ในชีวิตประจำวัน"],
    ["Lao", "lo", "ພາສາລາວເປັນພາສາທີ່ສວຍງາມແລະມີປະຫວັດສາດອັນຍາວນານປະຊາຊົນຫຼາຍລ້ານຄົນໃຊ້ພາສານີ້ທຸກມື້"],
    ["Khmer", "km", "ភាសាខ្មែរគឺជាភាសាដ៏ស្រស់ស្អាតហើយមានប្រវត្តិសាស្ត្រដ៏យូរលង់ប្រជាជនរាប់លាននាក់ប្រើភាសានេះរៀងរាល់ថ្ងៃ"],
    ["Myanmar", "my", "မြန်မာဘာသာစကားသည်လှပသောဘာသာစကားဖြစ်ပြီးရှည်လျားသောသမိုင်းရှိသည်လူသန်းပေါင်းများစွာနေ့စဉ်အသုံးပြုကြသည်"],
  ];
  const unspaced = async (language: string, content: string[]) => pdf.bytes(await pdf.ok("create_pdf_document", { title: "Lines", language, sections: [{ heading: "Words", content }] }));
  it.each(UNSPACED)("breaks the lines of %s, written without spaces, between words (ICU's dictionaries)", async (_name, language, sentence) => {
    const paragraph = sentence.repeat(4);
    const lines = pdfText(await unspaced(language, [paragraph]))
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && paragraph.includes(line));
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join(""), "every line, in order").toBe(paragraph);
    // Each line ends where a word of the sentence ends (the sentence's words by Node's ICU).
    const wordEnds = new Set([...new Intl.Segmenter(language, { granularity: "word" }).segment(sentence)].map((w) => w.index + w.segment.length));
    for (const line of lines.slice(0, -1)) expect(wordEnds, `"${line}" ends inside a word`).toContain((paragraph.indexOf(line) + line.length) % sentence.length || sentence.length);
  });

  it("cuts a word longer than a line between clusters, never after a virama or coeng", async () => {
    for (const [language, word] of [
      ["hi", "क्षत्रिय"],
      ["km", "ស្ត្រ"],
    ] as const) {
      const lines = pdfText(await unspaced(language, [word.repeat(90)]))
        .split("\n")
        .filter((line) => line.includes(word));
      expect(lines.length, language).toBeGreaterThan(1);
      for (const line of lines) expect(line.trim(), language).not.toMatch(/[\u094D\u17D2]$/);
    }
  });
});

describe("tables of several scripts", () => {
  it("sets a row's Chinese, Arabic, Hindi and Thai cells on the Latin cells' baseline, each at its column's side", async () => {
    const rows = [
      ["Tokyo", "東京", "+81 3 1234 5678"],
      ["Dubai", "دبي", "+971 4 123 4567"],
      ["Delhi", "दिल्ली", "+91 11 2345 6789"],
      ["Bangkok", "กรุงเทพฯ", "+66 2 123 4567"],
    ];
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", { title: "Offices", sections: [{ heading: "List", content: [{ type: "table", columns: ["City", "Local name", "Phone"], rows }] }] }));
    // pdf.js's text items, each at its baseline's origin (an independent reader: poppler's boxes go by each font's ascent).
    const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const task = getDocument({ data: new Uint8Array(bytes) });
    const items = ((await (await (await task.promise).getPage(1)).getTextContent()).items as { str: string; transform: number[] }[]).filter((i) => i.str.trim());
    await task.destroy();
    // Found by their first letter: pdf.js gives a cell's glyphs as several items where marked content spans them.
    const origin = (text: string) => items.find((i) => i.str.includes(text) || (/^\P{Script=Latin}/u.test(text) && i.str.startsWith(text[0]!)))!.transform;
    for (const [city, local] of rows) {
      expect(Math.abs(origin(local!)[5]! - origin(city!)[5]!), local).toBeLessThan(0.3);
      // A left-aligned column: the local name starts where the column's header does, Arabic too.
      expect(Math.abs(origin(local!)[4]! - origin("Local name")[4]!), local).toBeLessThan(1);
    }
  });
});

describe("right-to-left documents", () => {
  it("starts a table's first column, a list's markers and paragraphs at the right margin", async () => {
    const result = await pdf.ok("create_pdf_document", {
      title: "جدول",
      language: "ar",
      // Latin words mark the places (pdftotext -bbox reads right-to-left words glyph by glyph).
      sections: [
        {
          heading: "قسم",
          content: [
            { type: "table", columns: [{ header: "First" }, { header: "Second" }], rows: [["أ", "ب"]] },
            { type: "list", items: ["بند Item"] },
            "فقرة قصيرة Mark",
            "A short English paragraph.",
          ],
        },
      ],
    });
    const x = leftEdges(pdf.bytes(result));
    expect(x.get("First")!).toBeGreaterThan(x.get("Second")!);
    expect(x.get("•")!).toBeGreaterThan(x.get("Item")!);
    expect(x.get("Mark")!).toBeGreaterThan(300);
    // A paragraph that starts with a Latin letter runs left to right, even in an Arabic document.
    expect(x.get("short")!).toBeLessThan(150);
  });

  it("mirrors a document without a language whose letters are mostly right to left, and starts English items and cells at the right too", async () => {
    const result = await pdf.ok("create_pdf_document", {
      title: "تقرير الربع الثالث",
      sections: [
        {
          heading: "ملخص النتائج",
          content: [
            "هذه فقرة عربية تشرح النتائج بالتفصيل.",
            { type: "table", columns: [{ header: "First" }, { header: "Second" }], rows: [["Tea", "أ"]] },
            { type: "list", items: ["بند أول", "English item"] },
          ],
        },
      ],
    });
    const x = leftEdges(pdf.bytes(result));
    expect(x.get("First")!).toBeGreaterThan(x.get("Second")!);
    // The English item and cell start at their right edge, by their bullet and the column's start.
    expect(x.get("item")!).toBeGreaterThan(300);
    expect(x.get("Tea")!).toBeGreaterThan(x.get("Second")!);
    expect(x.get("•")!).toBeGreaterThan(x.get("item")!);
  });

  it("mirrors the contents of a right-to-left document: each heading at the right margin, its page at the left", async () => {
    const result = await pdf.ok("create_pdf_document", {
      title: "تقرير",
      language: "ar",
      table_of_contents: true,
      sections: [
        { heading: "Alpha", content: ["نص."] },
        { heading: "Beta", content: ["نص."] },
      ],
    });
    const firstPage = withPdf(pdf.bytes(result), (path) => execFileSync("pdftotext", ["-bbox", "-f", "1", "-l", "1", path, "-"], { encoding: "utf8" }));
    const words = [...firstPage.matchAll(/<word xMin="([\d.]+)"[^>]*>([^<]+)<\/word>/g)].map((m) => ({ word: m[2]!, x: Number(m[1]) }));
    expect(words.find((w) => w.word === "Alpha")!.x).toBeGreaterThan(400);
    // Both sections start on page 2: the contents' two page numbers (the footer's "2" is at the right).
    expect(words.filter((w) => w.word === "2" && w.x < 100)).toHaveLength(2);
  });

  it("sets a paragraph the way most of its letters run, not its first word's: a Hebrew sentence opening with a brand name, an English one with an Arabic word", async () => {
    const hebrew = "Google הודיעה היום על מוצר חדש בשם Gemini שיהיה זמין בישראל בקרוב.";
    const english = "مرحبا means hello in Arabic, and Ahlan welcome.";
    const arabic = "Apple هي شركة أمريكية متعددة الجنسيات مقرها في Cupertino كاليفورنيا.";
    const inHebrew = leftEdges(pdf.bytes(await pdf.ok("create_pdf_document", { title: "t", language: "he", sections: [{ heading: "מבוא", content: [hebrew] }] })));
    // Right to left: its first word at the right margin, a later Latin word to its left.
    expect(inHebrew.get("Google")!).toBeGreaterThan(inHebrew.get("Gemini")!);
    expect(inHebrew.get("Google")!).toBeGreaterThan(400);
    const inEnglish = leftEdges(pdf.bytes(await pdf.ok("create_pdf_document", { title: "t", sections: [{ heading: "Intro", content: [english, arabic] }] })));
    expect(inEnglish.get("means")!).toBeLessThan(inEnglish.get("Ahlan")!);
    expect(inEnglish.get("means")!).toBeLessThan(150);
    expect(inEnglish.get("Apple")!).toBeGreaterThan(inEnglish.get("Cupertino")!);
  });

  it("counts a nested right-to-left list in its own letters, which read the way its numbers do", async () => {
    const list = (items: unknown[]) => ({ type: "list", ordered: true, items });
    const arabic = pdfText(
      pdf.bytes(await pdf.ok("create_pdf_document", { title: "t", language: "ar", sections: [{ heading: "ح", content: [list([{ text: "الأول", items: ["الثاني", "الثالث"] }])] }] })),
    );
    const hebrew = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", { title: "t", language: "he", sections: [{ heading: "ח", content: [list([{ text: "ראשון", items: ["שני", "שלישי"] }])] }] })));
    // Poppler puts a space between a right-to-left letter and its full stop: compared without spaces.
    for (const [text, first, second] of [
      [arabic, "أ", "ب"],
      [hebrew, "א", "ב"],
    ] as const) {
      const plain = logical(text).replace(/ /g, "");
      expect(plain).toMatch(new RegExp(`${first}\\.|\\.${first}`));
      expect(plain).toMatch(new RegExp(`${second}\\.|\\.${second}`));
      expect(plain).not.toMatch(/[ab]\./);
    }
  });

  it("leaves a document in a left-to-right language as it is, whatever its letters", async () => {
    const result = await pdf.ok("create_pdf_document", { title: "تقرير", language: "en", sections: [{ heading: "قسم", content: [{ type: "list", items: ["بند Item"] }] }] });
    const x = leftEdges(pdf.bytes(result));
    expect(x.get("•")!).toBeLessThan(x.get("Item")!);
  });
});
