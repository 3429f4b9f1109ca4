import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import { encodePng, makePng, noisePng } from "./fixtures/png.js";
import { startPdf, type PdfHarness } from "./support/harness.js";
import { flat, pdfInfo, pdfText } from "./support/poppler.js";

// Unicode, limits and bad input of create_pdf_document, through the production entrypoint.
let pdf: PdfHarness;
beforeAll(async () => {
  pdf = await startPdf();
}, 30_000);
afterAll(() => pdf?.stop());

const doc = (content: unknown[], extra: Record<string, unknown> = {}) => ({ title: "T", sections: [{ heading: "H", content }], ...extra });

describe("Unicode", () => {
  const samples = {
    latin: "Dès Noël où un zéphyr haï me vêt de glaçons würmiens, je dîne d’exquis rôtis de bœuf au kir à l’aÿ d’âge mûr.",
    extended: "Zażółć gęślą jaźń. Příliš žluťoučký kůň. Árvíztűrő tükörfúrógép. Şirket İstanbul’da. Ærøskøbing.",
    greek: "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
    cyrillic: "Съешь же ещё этих мягких французских булок, да выпей чаю. Ґанок, їжак, європа.",
    symbols: "€ 1 234,50 · 20 °C · ± 5 % · “quotes” ‘single’ … — – • № ©®™ → ≤ ≥ ≠ ∞",
  };

  it("renders Latin with diacritics, Greek, Cyrillic and common symbols as written, in every style", async () => {
    const content = Object.values(samples).flatMap((s) => [s, `**${s}**`, `*${s}*`]);
    const result = await pdf.ok("create_pdf_document", doc([...content, { type: "code", text: samples.cyrillic }], { title: samples.greek.slice(0, 20) }));
    const text = flat(pdfText(pdf.bytes(result)));
    for (const sample of Object.values(samples)) expect(text).toContain(sample);
  });

  it("composes decomposed diacritics (NFC) so they use the fonts' own glyphs", async () => {
    const decomposed = "Cafe\u0301 Zu\u0308rich";
    const result = await pdf.ok("create_pdf_document", doc([decomposed]));
    expect(pdfText(pdf.bytes(result))).toContain("Café Zürich");
  });

  it("keeps look-alike letters apart in the text layer (Latin c, Cyrillic с and Greek ο share glyphs in DejaVu)", async () => {
    const mixed = "coco сосо οοο c A А Α";
    const result = await pdf.ok("create_pdf_document", doc([mixed, `**${mixed}**`]));
    const text = pdfText(pdf.bytes(result));
    expect(text).toContain(mixed);
    expect(text.match(/coco сосо οοο c A А Α/g)).toHaveLength(2);
  });

  it("keeps the letter c searchable after a document with ç embedded its glyph as a component", async () => {
    await pdf.ok("create_pdf_document", doc(["glaçons"]));
    const result = await pdf.ok("create_pdf_document", doc(["Zürich"]));
    expect(pdfText(pdf.bytes(result))).toContain("Zürich");
  });

  it("refuses text no shipped font can show, naming the characters, their script and the field", async () => {
    const error = await pdf.fails("create_pdf_document", doc(["Fine text, 東京 and 🦄", "Ulaanbaatar ᠤᠯᠠᠭᠠᠨ and \uE000"]));
    // A plain string: its field is the list entry itself (it was named as if it had a .text).
    expect(error).toContain("sections[0].content[1]: ");
    expect(error).not.toContain("content[0]");
    expect(error).toContain('"ᠤ" (U+1824, Mongolian script)');
    expect(error).toContain('"\uE000" (U+E000, private use)');
    expect(error).toMatch(/Remove or transliterate/);
  });

  it("checks headings, table cells and captions too", async () => {
    const error = await pdf.fails("create_pdf_document", {
      title: "T",
      sections: [{ heading: "ᠮᠣᠩ", content: [{ type: "table", columns: [{ header: "A" }], rows: [["ᠭᠣᠯ"]] }] }],
    });
    expect(error).toContain("sections[0].heading");
    expect(error).toContain("sections[0].content[0].rows[0][0]");
  });
});

describe("bad input", () => {
  const cases: [string, Record<string, unknown>, RegExp | string][] = [
    ["no sections", { title: "T", sections: [] }, /sections: .*>=1/],
    ["an unknown block type", doc([{ type: "chart", data: [] }]), "sections[0].content[0].type: expected paragraph, list, table, quote, code, image or page_break"],
    ["a misspelt block field", doc([{ type: "paragraph", txt: "x" }]), "sections[0].content[0].text: is required (expected string)"],
    ["a list item of the wrong type", doc([{ type: "list", items: ["a", true] }]), "sections[0].content[0].items[1]: expected a string or {text, items}"],
    [
      "a row with too many cells",
      doc([
        {
          type: "table",
          columns: [{ header: "A" }, { header: "B" }],
          rows: [
            ["1", "2"],
            ["3", "4", "5"],
          ],
        },
      ]),
      "sections[0].content[0]: the table has 2 columns, but rows[1] has 3;",
    ],
    [
      "lists nested too deep",
      doc([{ type: "list", items: [{ text: "1", items: [{ text: "2", items: [{ text: "3", items: [{ text: "4", items: ["5"] }] }] }] }] }]),
      "sections[0].content[0].items[0].items[0].items[0].items[0]: expected a string: lists nest at most 4 levels deep",
    ],
    ["an image with neither source", doc([{ type: "image" }]), /sections\[0\]\.content\[0\]: give exactly one of attachment_index .* or url/],
    ["an image with both sources", doc([{ type: "image", attachment_index: 0, url: "https://example.com/a.png" }]), /give exactly one/],
    ["an attachment index without attachments", doc([{ type: "image", attachment_index: 0 }]), /sections\[0\]\.content\[0\]\.attachment_index: is 0, but no files are attached/],
    ["a plain-http image URL", doc([{ type: "image", url: "http://example.com/a.png" }]), /sections\[0\]\.content\[0\]\.url: only https URLs can be fetched, got http/],
    ["an image URL to a private address (SSRF)", doc([{ type: "image", url: "https://10.0.0.1/a.png" }]), /sections\[0\]\.content\[0\]\.url: .*(internal|private|blocked)/i],
    ["an image URL to localhost (SSRF)", doc([{ type: "image", url: "https://localhost/a.png" }]), /sections\[0\]\.content\[0\]\.url: .*(internal|loopback|blocked)/i],
    ["a bad page size", { ...doc(["x"]), page_size: "A3" }, /page_size/],
    ["a hidden file name", { ...doc(["x"]), filename: ".r.pdf" }, /filename: expected a plain file name ending in \.pdf/],
    ["an impossible creation date", { ...doc(["x"]), creation_date: "2026-02-31T25:00:00Z" }, /creation_date/],
    ["a bad language tag", { ...doc(["x"]), language: "english!" }, /language: expected a language tag/],
  ];
  for (const [what, args, expected] of cases) {
    it(`refuses ${what}, naming the field`, async () => {
      const error = await pdf.fails("create_pdf_document", args);
      if (typeof expected === "string") expect(error).toContain(expected);
      else expect(error).toMatch(expected);
    });
  }

  it("refuses an attachment that is not a PNG or JPEG", async () => {
    const id = pdf.file(Buffer.from("GIF89a not really"), "a.gif", "image/gif");
    const error = await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }]), attachments: [{ artifact_id: id }] });
    expect(error).toBe("attachments[0] (a.gif, used by sections[0].content[0]): is not a PNG or JPEG image; convert it to one of those");
  });

  it("refuses a PNG with damaged data, naming the file", async () => {
    const png = makePng(4, 4, () => [0, 0, 0]);
    png.writeUInt32BE(0xdeadbeef, png.indexOf("IDAT") + 8); // corrupt the compressed data
    const id = pdf.file(png, "broken.png", "image/png");
    const error = await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }]), attachments: [{ artifact_id: id }] });
    expect(error).toBe("attachments[0] (broken.png, used by sections[0].content[0]): the PNG is damaged (the IDAT chunk's checksum is wrong); save it again or convert it to JPEG");
  });

  it("refuses a transparent PNG with a bad row filter, which pdfkit's decoder would throw on outside any try, and keeps serving", async () => {
    const rows = Buffer.alloc((1 + 4 * 4) * 4);
    rows[17] = 105;
    const id = pdf.file(encodePng({ width: 4, height: 4, colorType: 6, bitDepth: 8, idat: deflateSync(rows) }), "alpha.png", "image/png");
    const error = await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }]), attachments: [{ artifact_id: id }] });
    expect(error).toMatch(/the PNG is damaged \(row data has an invalid filter type 105\)/);
    expect(pdf.proc.child.exitCode).toBeNull();
    expect((await pdf.ok("create_pdf_document", doc(["still serving"]))).ok).toBe(true);
  });

  it("refuses a PNG decompression bomb quickly", async () => {
    const id = pdf.file(encodePng({ width: 1, height: 1, colorType: 6, bitDepth: 8, idat: deflateSync(Buffer.alloc(200 * 1024 * 1024)) }), "bomb.png", "image/png");
    const started = Date.now();
    const error = await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }]), attachments: [{ artifact_id: id }] });
    expect(error).toMatch(/the PNG is damaged \(the pixel data is longer than the image\)/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("limits", () => {
  // Sections of one page each: a line, then a page break (the last one's is dropped, as nothing follows it).
  const pages = (count: number) => ({
    title: "T",
    sections: Array.from({ length: Math.ceil(count / 100) }, (_, s) => ({
      heading: `S${s}`,
      content: Array.from({ length: Math.min(100, count - s * 100) }, () => ["a page", { type: "page_break" }]).flat(),
    })),
  });

  it("refuses a document of more than 200 pages while rendering it", async () => {
    const started = Date.now();
    const error = await pdf.fails("create_pdf_document", pages(250));
    expect(error).toBe("the document would have more than 200 pages; shorten it or split it into several documents");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("accepts exactly 200 pages", async () => {
    const result = await pdf.ok("create_pdf_document", pages(200));
    expect(result.pages).toBe(200);
    expect(pdfInfo(pdf.bytes(result)).Pages).toBe("200");
  });

  it("adds no blank page for a page break at the end, or for one on a page with nothing on it yet", async () => {
    const result = await pdf.ok("create_pdf_document", doc(["one", { type: "page_break" }, { type: "page_break" }, "two", { type: "page_break" }]));
    expect(result.pages).toBe(2);
  });

  it("takes a table of 20 columns (a label, twelve months, quarters, a total), and refuses 21 saying to split it", async () => {
    const columns = Array.from({ length: 20 }, (_, c) => `C${c + 1}`);
    const row = columns.map((_, c) => String(1000 * c + 7));
    const result = await pdf.ok("create_pdf_document", doc([{ type: "table", columns, rows: [row, row] }]));
    for (const cell of row) expect(pdfText(pdf.bytes(result)).split(/\s+/)).toContain(cell);
    const error = await pdf.fails("create_pdf_document", doc([{ type: "table", columns: [...columns, "C21"], rows: [[...row, "1"]] }]));
    expect(error).toContain("a table has at most 20 columns; split it into several tables");
  });

  it("refuses more than 20 images", async () => {
    const id = pdf.file(
      makePng(8, 8, () => [200, 0, 0]),
      "dot.png",
      "image/png",
    );
    const images = Array.from({ length: 21 }, () => ({ type: "image", attachment_index: 0 }));
    const error = await pdf.fails("create_pdf_document", { ...doc(images), attachments: [{ artifact_id: id }] });
    expect(error).toBe("sections[0].content[20]: a document has at most 20 images");
  });

  it("refuses an image of more than 16 megapixels from its header, before decoding it", async () => {
    // A valid header claiming 5000×4000 pixels with almost no data: the size is read, nothing is inflated.
    const png = makePng(1, 1, () => [0, 0, 0]);
    png.writeUInt32BE(5000, 16);
    png.writeUInt32BE(4000, 20);
    const id = pdf.file(png, "huge.png", "image/png");
    const error = await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }]), attachments: [{ artifact_id: id }] });
    expect(error).toBe("attachments[0] (huge.png, used by sections[0].content[0]): the image is 5000×4000 pixels, more than the limit of 16 megapixels; scale it down");
  });

  it("refuses a transparent PNG over 4 megapixels before decoding it", async () => {
    const png = encodePng({ width: 2500, height: 1700, colorType: 6, bitDepth: 8, idat: deflateSync(Buffer.alloc(16)) });
    const id = pdf.file(png, "big-alpha.png", "image/png");
    expect(await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }]), attachments: [{ artifact_id: id }] })).toBe(
      "attachments[0] (big-alpha.png, used by sections[0].content[0]): the image is 2500×1700 pixels with transparency or interlacing, more than the limit of 4 megapixels for such PNGs; scale it down or save it without transparency",
    );
  });

  it("refuses an output over the 5 MiB file limit", async () => {
    // Two noise PNGs of about 2.6 MB each stay under the 5 MiB the images may add up to; pdfkit embeds
    // them as they are, and 24 blocks of random text (about 0.14 MB compressed) push the PDF over the cap.
    const files = [noisePng(1000, 865), noisePng(1000, 865)];
    expect(files[0]!.length + files[1]!.length).toBeLessThan(5 * 1024 * 1024 - 20_000);
    const attachments = files.map((png, i) => ({ artifact_id: pdf.file(png, `n${i}.png`, "image/png") }));
    const text = Array.from({ length: 24 }, () => ({ type: "code", text: randomBytes(6_000).toString("base64") }));
    const error = await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }, { type: "image", attachment_index: 1 }, ...text]), attachments });
    expect(error).toBe("the PDF would be larger than the 5 MiB limit for a file; use fewer or smaller images, or split the document");
  }, 20_000);

  it("stops loading images once they add up to more than the 5 MiB the PDF may have", async () => {
    const noise = () => noisePng(1100, 1100); // about 3.5 MiB each
    const attachments = [{ artifact_id: pdf.file(noise(), "n1.png", "image/png") }, { artifact_id: pdf.file(noise(), "n2.png", "image/png") }];
    const error = await pdf.fails("create_pdf_document", {
      ...doc([
        { type: "image", attachment_index: 0 },
        { type: "image", attachment_index: 1 },
      ]),
      attachments,
    });
    expect(error).toBe("sections[0].content[1]: the images add up to more than 5 MiB, the limit for the whole PDF; use fewer or smaller images");
  });

  it("refuses more than 200,000 characters of text", async () => {
    const paragraph = "x".repeat(20_000);
    const error = await pdf.fails("create_pdf_document", { title: "T", sections: Array.from({ length: 11 }, () => ({ heading: "H", content: [paragraph] })) });
    expect(error).toBe("the document has more than 200,000 characters of text; split it into several documents");
  });

  it("renders 190,000 characters of unique unspaced text (base64) within its memory", async () => {
    // pdfkit caches the layout of every distinct word: unbounded, this took about 0.75 KB a character.
    const text = Array.from({ length: 19 }, () => ({ type: "code", text: randomBytes(7_500).toString("base64") }));
    const result = await pdf.ok("create_pdf_document", doc(text));
    expect(result.pages).toBeGreaterThan(30);
    expect(pdf.proc.child.exitCode).toBeNull();
  }, 30_000);

  it("refuses a paragraph over 200,000 characters by its schema bound", async () => {
    expect(await pdf.fails("create_pdf_document", doc(["x".repeat(200_001)]))).toMatch(/sections\[0\]\.content\[0\]/);
  });

  it("refuses a list of more than 500 items, nested ones included", async () => {
    const items = Array.from({ length: 250 }, (_, i) => ({ text: `item ${i}`, items: [`sub ${i}`] })).concat([{ text: "one more", items: ["too many"] }]);
    expect(await pdf.fails("create_pdf_document", doc([{ type: "list", items }]))).toBe("sections[0].content[0].items: a list has at most 500 items, nested ones included");
  });

  it("refuses an attached image over the 5 MiB file limit while it is uploaded", async () => {
    const id = pdf.file(Buffer.alloc(5 * 1024 * 1024 + 1), "big.png", "image/png");
    expect(await pdf.fails("create_pdf_document", { ...doc([{ type: "image", attachment_index: 0 }]), attachments: [{ artifact_id: id }] })).toMatch(
      /^Tool error: Capability artifact upload failed: .*larger than .*5 MiB/,
    );
  });
});
