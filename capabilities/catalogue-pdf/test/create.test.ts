import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { figuresTable, letterWithNewWords, sampleLetter, sampleReport } from "./fixtures/documents.js";
import { encodePng, gradientPng } from "./fixtures/png.js";
import { capabilityDir, startPdf, type PdfHarness } from "./support/harness.js";
import { flat, pageJpeg, pagePng, pdfFonts, pdfImagePixels, pdfImages, pdfInfo, pdfPageTexts, pdfText, pdfWords, qpdfCheck, qpdfObjects, xmlCheck, xmpMetadata } from "./support/poppler.js";

// create_pdf_document end to end: the production entrypoint behind the orchestrator double, every file
// checked with poppler and qpdf rather than with the libraries that wrote it.
let pdf: PdfHarness;
beforeAll(async () => {
  pdf = await startPdf();
}, 30_000);
afterAll(() => pdf?.stop());

const create = async (args: Record<string, unknown>) => {
  const result = await pdf.ok("create_pdf_document", args);
  return { result, bytes: pdf.bytes(result) };
};

describe("a sample report", () => {
  let report: Awaited<ReturnType<typeof create>>;
  let chart: Buffer;
  let photo: Buffer;
  beforeAll(async () => {
    chart = gradientPng(640, 320);
    photo = pageJpeg((await create(sampleLetter())).bytes);
    const attachments = [{ artifact_id: pdf.file(chart, "chart.png", "image/png") }, { artifact_id: pdf.file(photo, "photo.jpg", "image/jpeg") }];
    report = await create(sampleReport({ attachments }));
  }, 30_000);

  it("returns the artifact, its page count and size as the model sees them", () => {
    expect(report.result).toMatchObject({
      ok: true,
      artifact: { filename: "quarterly-report-q3-2026.pdf", mime_type: "application/pdf", size_bytes: report.bytes.length },
      size_bytes: report.bytes.length,
    });
    expect(report.result.pages).toBe(Number(pdfInfo(report.bytes).Pages));
  });

  it("is a structurally sound PDF (qpdf --check)", () => {
    const check = qpdfCheck(report.bytes);
    expect(check.ok, check.output).toBe(true);
  });

  it("carries the metadata: title, author, subject, keywords, creation date, A4", () => {
    const info = pdfInfo(report.bytes);
    expect(info).toMatchObject({
      Title: "Quarterly Report — Q3 2026",
      Author: "Zoë Łukasiewicz",
      Subject: "Quarterly results",
      Keywords: "quarterly, report, 2026",
      CreationDate: "2026-11-23T09:00:00Z",
      Encrypted: "no",
    });
    expect(info["Page size"]).toContain("(A4)");
  });

  it("writes the metadata into well-formed XMP, markup characters escaped, as readers of XMP need", async () => {
    const title = "R&D <draft> Q3";
    const { bytes } = await create({ title, author: "Smith & Jones", subject: "A > B", keywords: ["x<y", "a&b"], creation_date: "2026-11-23T09:00:00Z", sections: [{ heading: "H", content: ["x"] }] });
    const xmp = xmpMetadata(bytes);
    const check = xmlCheck(xmp);
    expect(check.ok, check.output).toBe(true);
    expect(xmp).toContain('<rdf:li xml:lang="x-default">R&amp;D &lt;draft&gt; Q3</rdf:li>');
    expect(xmp).toContain("<rdf:li>Smith &amp; Jones</rdf:li>");
    expect(xmp).toContain("<pdf:Keywords>x&lt;y, a&amp;b</pdf:Keywords>");
    expect(xmp).toContain("<xmp:CreateDate>2026-11-23T09:00:00Z</xmp:CreateDate>");
    // The document information dictionary keeps the text as it is.
    expect(pdfInfo(bytes)).toMatchObject({ Title: title, Author: "Smith & Jones", Subject: "A > B" });
  });

  it("embeds every font it uses (DejaVu)", () => {
    const fonts = pdfFonts(report.bytes);
    expect(fonts.length).toBeGreaterThan(2);
    for (const font of fonts) {
      expect(font.embedded, font.name).toBe(true);
      expect(font.name).toContain("DejaVu");
    }
  });

  it("shows the text in reading order: title, contents, then the sections in turn", () => {
    const text = pdfText(report.bytes);
    const order = ["Quarterly Report — Q3 2026", "Unaudited results for the board", "Zoë Łukasiewicz · 23 November 2026", "Contents", "1. Overview", "10. Appendix"].concat(
      Array.from({ length: 10 }, (_, s) => `Section ${s + 1} summarises`),
    );
    let at = -1;
    for (const needle of order) {
      const found = text.indexOf(needle, at + 1);
      expect(found, `${needle} after position ${at}`).toBeGreaterThan(at);
      at = found;
    }
  });

  it("renders inline markup as text without the markers, and Greek, Cyrillic and Czech as written", () => {
    const text = flat(pdfText(report.bytes));
    expect(text).toContain("summarises the quarter for the board. Revenue grew in most regions; see the dashboard and the revenue_eur column");
    expect(text).not.toContain("**");
    for (const sample of ["Ελληνικά: καλημέρα.", "Русский: добрый", "příliš žluťoučký kůň", "Αθήνα", "Москва", "São Paulo", "Kraków"]) {
      expect(text).toContain(sample);
    }
  });

  it("lists the sections on the contents page with the page each starts on", () => {
    const pages = pdfPageTexts(report.bytes);
    const contents = pdfPageTexts(report.bytes, { layout: true })[0]!;
    for (let s = 1; s <= 10; s++) {
      const line = contents.split("\n").find((l) => l.startsWith(`${s}. `));
      expect(line, `contents line ${s}`).toBeDefined();
      const page = Number(line!.trim().split(/\s+/).at(-1));
      expect(pages[page - 1], `section ${s} on page ${page}`).toContain(`Section ${s} summarises`);
    }
  });

  it("numbers every page as 'Page n of N' and repeats the header from page 2", () => {
    const pages = pdfPageTexts(report.bytes);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
      expect(page).toContain("Confidential");
      if (i > 0) expect(page.trimStart().startsWith("Quarterly Report — Q3 2026"), `header on page ${i + 1}`).toBe(true);
    });
  });

  it("embeds each image once (PNG and JPEG), however often it is used", () => {
    const images = pdfImages(report.bytes).filter((i) => i.type === "image");
    const sizes = new Set(images.map((i) => `${i.width}x${i.height}`));
    expect(sizes).toEqual(new Set(["640x320", `${photo.readUInt16BE(photo.indexOf(Buffer.from([0xff, 0xc0])) + 7)}x${photo.readUInt16BE(photo.indexOf(Buffer.from([0xff, 0xc0])) + 5)}`]));
    expect(images.some((i) => i.enc === "jpeg")).toBe(true);
    // Four image blocks, two sources: each later use refers to the embedded object, so pdfimages
    // lists it on every page that shows it.
    expect(images.length).toBe(4);
  });

  it("leaves a PNG of its first and second pages in out/ for a person to look at", () => {
    mkdirSync(`${capabilityDir}/out`, { recursive: true });
    writeFileSync(`${capabilityDir}/out/sample-report.pdf`, report.bytes);
    writeFileSync(`${capabilityDir}/out/sample-report-page-1.png`, pagePng(report.bytes, 1));
    writeFileSync(`${capabilityDir}/out/sample-report-page-2.png`, pagePng(report.bytes, 2));
  });
});

describe("letters one after another", () => {
  it("embed the font programs of the letter before when only their words and capitals differ (the subset seed holds a-z, A-Z, digits)", async () => {
    const [first, second] = [await create(letterWithNewWords(1)), await create(letterWithNewWords(2))];
    const capitals = (bytes: Buffer) => new Set(flat(pdfText(bytes)).match(/[A-Z]/g));
    expect(capitals(first.bytes)).not.toEqual(capitals(second.bytes));
    // A subset's name carries a tag of its glyphs (ABCDEF+DejaVuSans): the same names, the same programs.
    expect(pdfFonts(second.bytes).map((f) => f.name)).toEqual(pdfFonts(first.bytes).map((f) => f.name));
    const [firstWord] = flat(JSON.stringify(letterWithNewWords(2).sections[0]!.content[0])).match(/[A-Z][a-z]+/)!;
    expect(flat(pdfText(second.bytes))).toContain(firstWord);
  });
});

describe("tables", () => {
  it("repeat the header row on every page a long table continues on, rows in order", async () => {
    const { bytes } = await create({ title: "Long table", sections: [{ heading: "Figures", content: [figuresTable(120)] }] });
    const pages = pdfPageTexts(bytes, { layout: true });
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) expect(page).toMatch(/Region +Quarter +Revenue \(€\) +Change +Notes/);
    const text = pdfText(bytes, { layout: true });
    let at = -1;
    for (let i = 0; i < 120; i += 7) {
      const found = text.indexOf(((i + 1) * 12_345 + 1_000).toLocaleString("en"), at + 1);
      expect(found, `row ${i}`).toBeGreaterThan(at);
      at = found;
    }
  });

  it("wrap long cells inside their column instead of running off the page", async () => {
    const long = "A very long cell text that certainly needs several lines in a narrow column of a three column table.";
    const { bytes } = await create({
      title: "Wrap",
      sections: [{ heading: "T", content: [{ type: "table", columns: [{ header: "A" }, { header: "B" }, { header: "C" }], rows: [[long, long, long]] }] }],
    });
    const text = pdfText(bytes);
    expect(text).toContain("A very long cell");
    expect(text.replace(/\s+/g, " ")).toContain("three column table.");
    expect(Number(pdfInfo(bytes).Pages)).toBe(1);
  });

  it("split a row taller than a page across pages, each cell's words all drawn and in order, the header repeated", async () => {
    const cell = (c: number) => Array.from({ length: 260 }, (_, i) => `c${c}w${i}`).join(" ");
    const table = {
      type: "table",
      columns: ["Criterion", "Vendor A", "Vendor B", "Vendor C"],
      rows: [
        ["Support", cell(1), cell(2), cell(3)],
        ["Price", "low", "high", "mid"],
      ],
    };
    const { bytes } = await create({ title: "Compare", sections: [{ heading: "Vendors", content: ["Before the table.", table] }] });
    const pages = pdfPageTexts(bytes, { layout: true });
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) expect(page).toMatch(/Criterion\s+Vendor A\s+Vendor B\s+Vendor C/);
    const words = pdfWords(bytes);
    for (const c of [1, 2, 3]) {
      const order = words.filter((w) => w.text.startsWith(`c${c}w`)).map((w) => Number(w.text.slice(`c${c}w`.length)));
      expect(order, `column ${c}`).toEqual(Array.from({ length: 260 }, (_, i) => i));
    }
    expect(pages.at(-1)).toMatch(/Price\s+low\s+high\s+mid/);
    // Thai, written without spaces, is cut between its words; a long token (a hash) between characters.
    const thai = "ภาษาไทย".repeat(280);
    const token = "a1b2c3d4".repeat(250);
    const other = await create({ title: "Cuts", sections: [{ heading: "T", content: [{ type: "table", columns: ["A", "B", "C", "D"], rows: [[thai, thai, thai, token]] }] }] });
    expect(other.result.pages).toBeGreaterThan(1);
    expect(flat(pdfText(other.bytes)).replaceAll(" ", "")).toContain("ภาษาไทย".repeat(20));
  });

  it("break a long email address or URL inside before any other column's words, and keep a table's words whole where they fit", async () => {
    const invoices = {
      type: "table",
      columns: ["Invoice", "Customer", "Contact email", "Due", { header: "Amount", align: "right" }],
      rows: [
        ["INV-2026-000123", "Acme Corporation International", "billing.department@acme-corporation-international.com", "2026-11-23", "$12,345.67"],
        ["INV-2026-000124", "Globex", "accounts@globex.example", "2026-11-24", "$987.00"],
      ],
    };
    const team = {
      type: "table",
      columns: ["Name", "Role", "Email", "Website", "Start date", "Salary", "Location", "Notes"],
      rows: [
        [
          "Person Lastname",
          "Senior software engineer",
          "person.lastname@example-company.com",
          "https://www.example-company.com/team/person-0-lastname",
          "2024-01-15",
          "120,000",
          "San Francisco, CA",
          "Works remotely two days per week",
        ],
      ],
    };
    const { bytes } = await create({ title: "Columns", sections: [{ heading: "T", content: [invoices, team] }] });
    const words = new Set(pdfWords(bytes).map((w) => w.text));
    for (const word of [
      "Customer",
      "Corporation",
      "International",
      "Invoice",
      "INV-2026-000123",
      "2026-11-23",
      "$12,345.67",
      "Senior",
      "software",
      "engineer",
      "Francisco,",
      "remotely",
      "2024-01-15",
    ]) {
      expect(words.has(word), word).toBe(true);
    }
  });
});

describe("images", () => {
  it("embeds PNGs of every kind: transparency as a soft mask, palettes, grey, 16-bit, interlaced", async () => {
    const kinds = [
      encodePng({ width: 40, height: 20, colorType: 6, bitDepth: 8 }),
      encodePng({ width: 41, height: 20, colorType: 4, bitDepth: 16 }),
      encodePng({ width: 42, height: 20, colorType: 3, bitDepth: 8, transparency: true }),
      encodePng({ width: 43, height: 20, colorType: 0, bitDepth: 1 }),
      encodePng({ width: 44, height: 20, colorType: 2, bitDepth: 16 }),
      encodePng({ width: 45, height: 20, colorType: 2, bitDepth: 8, interlaced: true }),
    ];
    const attachments = kinds.map((png, i) => ({ artifact_id: pdf.file(png, `k${i}.png`, "image/png") }));
    const { bytes } = await create({ title: "PNGs", sections: [{ heading: "All kinds", content: kinds.map((_, i) => ({ type: "image", attachment_index: i, width: 0.2 })) }], attachments });
    const images = pdfImages(bytes);
    expect(images.filter((i) => i.type === "image").map((i) => i.width)).toEqual([40, 41, 42, 43, 44, 45]);
    // RGBA and grey+alpha carry their alpha as a soft mask; the palette's tRNS too.
    expect(images.filter((i) => i.type === "smask").map((i) => i.width)).toEqual([40, 41, 42]);
    expect(qpdfCheck(bytes).ok).toBe(true);
  });
});

describe("image pixels", () => {
  // Each sample a function of its position and channel; 16-bit samples carry it in their high byte.
  const sample = (x: number, y: number, k: number) => (x * 37 + y * 11 + k * 60) & 255;
  const kinds: [string, Parameters<typeof encodePng>[0]][] = [
    ["RGB", { width: 23, height: 13, colorType: 2, bitDepth: 8 }],
    ["16-bit RGB", { width: 23, height: 13, colorType: 2, bitDepth: 16 }],
    ["grey", { width: 23, height: 13, colorType: 0, bitDepth: 8 }],
    ["RGBA", { width: 23, height: 13, colorType: 6, bitDepth: 8 }],
    ["16-bit grey with alpha", { width: 23, height: 13, colorType: 4, bitDepth: 16 }],
    ["interlaced RGB", { width: 23, height: 13, colorType: 2, bitDepth: 8, interlaced: true }],
    ["interlaced RGBA", { width: 23, height: 13, colorType: 6, bitDepth: 8, interlaced: true }],
  ];
  for (const [name, options] of kinds) {
    it(`come out of the PDF exactly as they went in, every row filter undone: ${name}`, async () => {
      const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[options.colorType as 0 | 2 | 4 | 6];
      const png = encodePng({ ...options, filtered: true, pixel: (x, y) => Array.from({ length: channels }, (_, k) => (options.bitDepth === 16 ? sample(x, y, k) * 256 + 7 : sample(x, y, k))) });
      const id = pdf.file(png, `${name}.png`, "image/png");
      const { bytes } = await create({ title: "Pixels", sections: [{ heading: name, content: [{ type: "image", attachment_index: 0 }] }], attachments: [{ artifact_id: id }] });
      const [image, mask] = pdfImagePixels(bytes);
      const colors = channels === 1 || channels === 2 ? 1 : 3;
      const expected = Buffer.alloc(options.width * options.height * colors);
      const expectedAlpha = Buffer.alloc(options.width * options.height);
      for (let y = 0; y < options.height; y++) {
        for (let x = 0; x < options.width; x++) {
          for (let k = 0; k < colors; k++) expected[(y * options.width + x) * colors + k] = sample(x, y, k);
          expectedAlpha[y * options.width + x] = sample(x, y, colors);
        }
      }
      // pdfimages writes grey images as PPM too (three equal channels): compare grey by its first channel.
      const grey = (img: { channels: number; pixels: Buffer }) => (img.channels === 3 ? Buffer.from(img.pixels.filter((_, i) => i % 3 === 0)) : img.pixels);
      expect({ width: image!.width, height: image!.height }).toEqual({ width: options.width, height: options.height });
      expect((colors === 1 ? grey(image!) : image!.pixels).equals(expected)).toBe(true);
      if (channels === 2 || channels === 4) expect(grey(mask!).equals(expectedAlpha)).toBe(true);
      else expect(mask).toBeUndefined();
    });
  }
});

describe("blocks", () => {
  it("keeps code whitespace, numbers nested lists 1. a. i., and shows quotes with their attribution", async () => {
    const { bytes } = await create({
      title: "Blocks",
      sections: [
        {
          heading: "All of them",
          content: [
            { type: "code", language: "python", text: "def f(x):\n    return x * 2" },
            { type: "list", ordered: true, items: [{ text: "First", items: [{ text: "Sub", items: ["Deep"] }] }, "Second"] },
            { type: "quote", text: "Simplicity is prerequisite for reliability.", attribution: "Edsger W. Dijkstra" },
            { type: "page_break" },
            "After the break.",
          ],
        },
      ],
    });
    const pages = pdfPageTexts(bytes, { layout: true });
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain("python");
    expect(pages[0]).toMatch(/^( *)def f\(x\):\n\1    return x \* 2$/m);
    expect(pages[0]).toMatch(/1\.\s+First[\s\S]*a\.\s+Sub[\s\S]*i\.\s+Deep[\s\S]*2\.\s+Second/);
    expect(pages[0]).toContain("— Edsger W. Dijkstra");
    expect(pages[1]).toContain("After the break.");
  });

  it("drops markdown markers from titles and headings instead of printing them", async () => {
    const { bytes } = await create({ title: "**Board** report", sections: [{ heading: "*Summary* of `Q3`", content: ["x"] }] });
    const text = pdfText(bytes);
    expect(text).toContain("Board report");
    expect(text).toContain("Summary of Q3");
    expect(text).not.toMatch(/[*`]/);
    expect(pdfInfo(bytes).Title).toBe("Board report");
  });

  it("sets Letter landscape pages when asked", async () => {
    const { bytes } = await create({ title: "Wide", page_size: "Letter", orientation: "landscape", sections: [{ heading: "H", content: ["x"] }] });
    expect(pdfInfo(bytes)["Page size"]).toBe("792 x 612 pts (letter)");
  });

  it("continues a contents list longer than a page on the next page, every entry pointing at its section", async () => {
    const sections = Array.from({ length: 60 }, (_, s) => ({ heading: `Chapter ${s + 1}`, content: [`Body of chapter ${s + 1}.`] }));
    const { bytes } = await create({ title: "Many chapters", table_of_contents: true, sections });
    const layout = pdfPageTexts(bytes, { layout: true });
    const plain = pdfPageTexts(bytes);
    const entries = layout.flatMap((page) => [...page.matchAll(/^\s*Chapter (\d+)\s+(\d+)\s*$/gm)].map((m) => [Number(m[1]), Number(m[2])] as const));
    expect(entries.map(([c]) => c)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (const [chapter, page] of entries) expect(plain[page - 1], `chapter ${chapter}`).toContain(`Body of chapter ${chapter}.`);
  });

  it("keeps the named destinations of a contents list in the order of their bytes, as a viewer's lookup expects", async () => {
    const sections = Array.from({ length: 12 }, (_, s) => ({ heading: `Chapter ${s + 1}`, content: ["x"] }));
    const { bytes } = await create({ title: "Twelve chapters", table_of_contents: true, sections });
    const trees = Object.values(qpdfObjects(bytes)).flatMap(({ value }) => {
      const dests = (value as { "/Dests"?: { "/Names"?: unknown[] } } | undefined)?.["/Dests"];
      return dests?.["/Names"] ? [dests["/Names"]] : [];
    });
    expect(trees).toHaveLength(1);
    const keys = trees[0]!.filter((_, i) => i % 2 === 0);
    expect(keys).toHaveLength(12);
    // section-10 before section-2: PDF 32000-1 (7.9.6) sorts a name tree's keys by their bytes.
    expect(keys).toEqual(keys.map(String).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    expect(keys.slice(0, 4)).toEqual(["u:section-1", "u:section-10", "u:section-11", "u:section-12"]);
  });

  it.each([
    ["ar", "المحتويات", "صفحة 1 من 2"],
    ["he", "תוכן העניינים", "עמוד 1 מתוך 2"],
    ["hi", "विषय-सूची", "पृष्ठ 1 / 2"],
    ["zh", "目录", "第 1 页，共 2 页"],
    ["zh-TW", "目錄", "第 1 頁，共 2 頁"],
    ["ja", "目次", "1 / 2 ページ"],
    ["ko", "목차", "1 / 2 페이지"],
  ])("labels the contents and pages of a %s document in its language", async (language, contents, page) => {
    const { bytes } = await create({ title: "T", language, table_of_contents: true, sections: [{ heading: "H", content: ["x"] }] });
    const letters = (text: string) => text.replace(/[\p{P}\s\u200E\u200F\u202A-\u202E]/gu, "");
    expect(letters(pdfText(bytes))).toContain(letters(contents));
    expect(letters(pdfText(bytes))).toContain(letters(page));
  });

  it("labels pages in the document's language", async () => {
    const { bytes } = await create({ title: "Bericht", language: "de", table_of_contents: true, sections: [{ heading: "Einleitung", content: ["Text"] }] });
    const text = pdfText(bytes);
    expect(text).toContain("Inhalt");
    expect(text).toContain("Seite 1 von 2");
  });

  it("breaks words wider than the line across lines, in a paragraph, a list and a quote, and keeps serving", async () => {
    const word = "ab".repeat(5_000); // one 10,000-character "word" (a hash, base64, a URL)
    const { result, bytes } = await create({
      title: "Long words",
      page_numbers: false,
      sections: [
        {
          heading: "H",
          content: [
            { type: "paragraph", text: word },
            { type: "list", items: [word] },
            { type: "quote", text: word },
          ],
        },
      ],
    });
    expect(result.ok).toBe(true);
    const text = pdfText(bytes);
    expect(text.replace(/[^ab]/g, "")).toBe(word.repeat(3)); // each copy whole, nothing lost or repeated
    expect((await create(sampleLetter())).result.pages).toBe(1);
  });

  it("copies a long URL or hash that fits its line out whole, with no character added inside it", async () => {
    const url = "https://example.com/a/very/long/path/that/goes/on/and/on?id=0123456789abcdef";
    const hash = "a1b2c3d4".repeat(8);
    const { bytes } = await create({ title: "Links", sections: [{ heading: "H", content: [`See ${url} now.`, `Hash: ${hash}`, { type: "table", columns: ["Key"], rows: [[hash]] }] }] });
    const text = pdfText(bytes);
    expect(text).not.toMatch(/\u200B/);
    expect(text).toContain(`See ${url}`);
    expect(text).toContain(`Hash: ${hash}`);
  });

  it("writes a one-page letter with line breaks kept and no page number", async () => {
    const { result, bytes } = await create(sampleLetter());
    expect(result.pages).toBe(1);
    const text = pdfText(bytes);
    expect(text).toContain("Mit freundlichen Grüßen\nJürgen Müller");
    expect(text).not.toContain("Seite");
  });
});
