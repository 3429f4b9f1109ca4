import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, type PDFRef, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleReport } from "./fixtures/documents.js";
import { gradientPng } from "./fixtures/png.js";
import { startPdf, type PdfHarness } from "./support/harness.js";
import { encryptPdf, flat, pdfFonts, pdfInfo, pdfPageTexts, qpdfCheck } from "./support/poppler.js";

// extract_pdf_text and merge_pdfs, alone and in round trips with create_pdf_document, as the model would
// chain them: each artifact goes back to the orchestrator and is attached to the next call by artifact_id.
let pdf: PdfHarness;
beforeAll(async () => {
  pdf = await startPdf();
}, 30_000);
afterAll(() => pdf?.stop());

type Extracted = { files: { filename: string; total_pages: number }[]; pages: { file: number; page: number; text: string }[]; total_pages: number; truncated: boolean };

const artifactId = (result: Record<string, unknown>) => (result.artifact as { artifact_id: string }).artifact_id;
const extract = async (args: Record<string, unknown>) => (await pdf.ok("extract_pdf_text", args)) as unknown as Extracted;

/** A PDF of `pages` pages saying "<label> page n", made by pdf-lib (not by the code under test). */
async function labelledPdf(label: string, pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage([300, 200]).drawText(`${label} page ${i}`, { x: 20, y: 100, size: 14, font });
  return Buffer.from(await doc.save());
}

/** `pdf` saved without object streams, page `page`'s object made unparsable (as a damaged file's can be). */
async function withDamagedPage(pdf: Buffer, page: number): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf);
  const ref = doc.getPage(page - 1).ref;
  const plain = Buffer.from(await doc.save({ useObjectStreams: false })).toString("latin1");
  const header = `\n${ref.objectNumber} ${ref.generationNumber} obj\n<<`;
  if (!plain.includes(header)) throw new Error("page object not found");
  return Buffer.from(plain.replace(header, `${header} ) `), "latin1");
}

describe("round trips through the orchestrator", () => {
  it("create → extract gives back the text of each page, in order, with Greek and Cyrillic intact", async () => {
    const chart = pdf.file(gradientPng(300, 150), "chart.png", "image/png");
    const created = await pdf.ok("create_pdf_document", sampleReport({ sections: 3, tables: 2, images: 1, attachments: [{ artifact_id: chart }] }));
    const out = await extract({ attachments: [{ artifact_id: artifactId(created) }] });
    expect(out.total_pages).toBe(created.pages);
    expect(out.files).toEqual([{ filename: "quarterly-report-q3-2026.pdf", total_pages: created.pages }]);
    expect(out.pages.map((p) => p.page)).toEqual(Array.from({ length: created.pages as number }, (_, i) => i + 1));
    const all = flat(out.pages.map((p) => p.text).join("\n"));
    expect(all).toContain("Quarterly Report — Q3 2026");
    expect(all).toContain("Ελληνικά: καλημέρα. Русский: добрый день. Čeština: příliš žluťoučký kůň.");
    expect(all.indexOf("Section 1 summarises")).toBeLessThan(all.indexOf("Section 3 summarises"));
    expect(out.truncated).toBe(false);
  });

  it("create → extract gives back Indic, Southeast Asian and emoji text as written, with no control characters", async () => {
    // pdf.js, which extract_pdf_text reads with (as Firefox's viewer does), ignores ActualText: it reads
    // each glyph's own mapping, and one that maps to nothing it gave as its code (a control, or a letter).
    const lines = ["हिन्दी भाषा में संयुक्ताक्षर जैसे क्ष, त्र, ज्ञ और स्त्री होते हैं।", "ภาษาไทยเป็นภาษาที่ไม่มีการเว้นวรรค", "សួស្តី ពិភពលោក ស្ត្រី", "ආයුබෝවන් ශ්‍රී ලංකා", "Keys 1️⃣ coder 👩🏽‍💻 fire ❤️‍🔥 done"];
    const created = await pdf.ok("create_pdf_document", { title: "Scripts", sections: [{ heading: "Lines", content: lines }] });
    const text = (await extract({ attachments: [{ artifact_id: artifactId(created) }] })).pages[0]!.text;
    expect(text.split("\n").slice(2, 2 + lines.length)).toEqual(lines);
  });

  it("reads a right-to-left document with marks without control characters", async () => {
    const created = await pdf.ok("create_pdf_document", { title: "Marks", language: "ar", sections: [{ heading: "h", content: ["بِسْمِ اللَّهِ مرحبا", "בְּרֵאשִׁית בָּרָא"] }] });
    const text = (await extract({ attachments: [{ artifact_id: artifactId(created) }] })).pages[0]!.text;
    expect(text).not.toMatch(/[\u0000-\u0008\u000B-\u001F]/);
    expect(text).toContain("مرحبا");
  });

  it("create → merge → extract keeps both documents' pages in the order given", async () => {
    const a = await pdf.ok("create_pdf_document", {
      title: "Alpha",
      sections: [
        { heading: "A1", content: ["First document."] },
        { heading: "A2", content: [{ type: "page_break" }, "Its second page."] },
      ],
    });
    const b = await pdf.ok("create_pdf_document", { title: "Бета", sections: [{ heading: "B1", content: ["Второй документ."] }] });
    const merged = await pdf.ok("merge_pdfs", { attachments: [{ artifact_id: artifactId(b) }, { artifact_id: artifactId(a) }], filename: "both.pdf", title: "Both" });
    expect(merged).toMatchObject({ ok: true, pages: 3, artifact: { filename: "both.pdf", mime_type: "application/pdf" } });
    const bytes = pdf.bytes(merged);
    expect(qpdfCheck(bytes).ok).toBe(true);
    expect(pdfInfo(bytes)).toMatchObject({ Pages: "3", Title: "Both" });
    const out = await extract({ attachments: [{ artifact_id: artifactId(merged) }] });
    expect(out.pages.map((p) => p.text.split("\n")[0])).toEqual(["Бета", "Alpha", "Its second page."]);
    expect(out.pages[0]!.text).toContain("Второй документ.");
    // Each document's subsets keep names of their own (ISO 32000-1 9.6.4: different subsets, different tags).
    const names = pdfFonts(bytes).map((f) => f.name);
    expect(names.length).toBeGreaterThan(2);
    expect(new Set(names).size).toBe(names.length);
    // A file name written without its .pdf gets it.
    const named = await pdf.ok("merge_pdfs", { attachments: [{ artifact_id: artifactId(a) }], filename: "Both Docs" });
    expect(named).toMatchObject({ artifact: { filename: "Both Docs.pdf" } });
  });
});

describe("merge_pdfs keeps navigation", () => {
  /** The outline as "title → page number" lines, nested items indented, from pdf-lib's low-level objects. */
  function outline(doc: PDFDocument): string[] {
    const pages = doc.getPages().map((p) => p.ref);
    const lines: string[] = [];
    const walk = (first: unknown, depth: number) => {
      for (let item = doc.context.lookupMaybe(first as PDFRef, PDFDict); item; item = doc.context.lookupMaybe(item.get(PDFName.of("Next")) as PDFRef, PDFDict)) {
        const dest = item.lookup(PDFName.of("Dest"), PDFArray);
        const title = (item.lookup(PDFName.of("Title")) as PDFHexString).decodeText();
        lines.push(`${"  ".repeat(depth)}${title} → ${pages.indexOf(dest.get(0) as PDFRef) + 1}`);
        walk(item.get(PDFName.of("First")), depth + 1);
      }
    };
    walk(doc.catalog.lookupMaybe(PDFName.of("Outlines"), PDFDict)?.get(PDFName.of("First")), 0);
    return lines;
  }

  it("points each file's contents links at its copied pages, and gives the merged file a bookmark per file with the file's bookmarks under it", async () => {
    const report = await pdf.ok("create_pdf_document", {
      title: "Report",
      table_of_contents: true,
      sections: [
        { heading: "Intro", content: ["First.", { type: "page_break" }] },
        { heading: "Details", content: ["Second."] },
      ],
    });
    const plain = pdf.file(await labelledPdf("Plain", 2), "plain.pdf", "application/pdf");
    const merged = await pdf.ok("merge_pdfs", { attachments: [{ artifact_id: plain }, { artifact_id: artifactId(report) }] });
    const doc = await PDFDocument.load(pdf.bytes(merged));
    // The report: its contents on page 1, Intro on page 2, Details on page 3 (merged: 3, 4, 5).
    expect(outline(doc)).toEqual(["plain.pdf → 1", "Report → 3", "  Intro → 4", "  Details → 5"]);
    // The contents page's two links now go to the merged file's pages 4 and 5 (they named destinations
    // the merge left behind).
    const pages = doc.getPages().map((p) => p.ref);
    const targets = doc
      .getPages()[2]!
      .node.Annots()!
      .asArray()
      .map((ref) => doc.context.lookup(ref, PDFDict))
      .filter((annot) => annot.get(PDFName.of("Subtype")) === PDFName.of("Link") && annot.has(PDFName.of("A")))
      .map((annot) => annot.lookup(PDFName.of("A"), PDFDict).get(PDFName.of("D")))
      .map((dest) => (dest instanceof PDFArray ? pages.indexOf(dest.get(0) as PDFRef) + 1 : String(dest)));
    expect([...new Set(targets)]).toEqual([4, 5]);
    expect(qpdfCheck(pdf.bytes(merged)).ok).toBe(true);
    // Taking only the contents page: its links go nowhere in the merged file, so they carry no action.
    const part = await PDFDocument.load(pdf.bytes(await pdf.ok("merge_pdfs", { attachments: [{ artifact_id: artifactId(report), pages: "1" }] })));
    const actions =
      part
        .getPages()[0]!
        .node.Annots()
        ?.asArray()
        .filter((ref) => part.context.lookup(ref, PDFDict).has(PDFName.of("A"))) ?? [];
    expect(actions).toEqual([]);
  });

  it("takes a link to a page not taken off before copying, so no hidden copy of that page comes along", async () => {
    const doc = await PDFDocument.load(await labelledPdf("Linked", 3));
    const [first, , third] = doc.getPages();
    const link = doc.context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 10, 10], Dest: [third!.ref, "Fit"] });
    first!.node.set(PDFName.of("Annots"), doc.context.obj([doc.context.register(link)]));
    const id = pdf.file(Buffer.from(await doc.save()), "linked.pdf", "application/pdf");
    const merged = await PDFDocument.load(pdf.bytes(await pdf.ok("merge_pdfs", { attachments: [{ artifact_id: id, pages: "1" }] })));
    const pageObjects = merged.context.enumerateIndirectObjects().filter(([, object]) => object instanceof PDFDict && object.get(PDFName.of("Type")) === PDFName.of("Page"));
    expect(pageObjects).toHaveLength(1);
    expect(merged.context.lookup(merged.getPages()[0]!.node.Annots()!.get(0), PDFDict).has(PDFName.of("Dest"))).toBe(false);
  });

  it("points links with an explicit destination (a page object, as LaTeX and Word write them) at the page tree's copies, copying no page twice", async () => {
    const source = await PDFDocument.create();
    const font = await source.embedFont(StandardFonts.Helvetica);
    const pages = [1, 2, 3].map((i) => {
      const page = source.addPage([300, 200]);
      page.drawText(`Linked page ${i}`, { x: 20, y: 100, size: 14, font });
      return page;
    });
    // Page 1 links to page 3 by /Dest, page 2 to page 1 by a GoTo action.
    const link = (dest: PDFArray, action: boolean) =>
      source.context.register(source.context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 100, 20], ...(action ? { A: { S: "GoTo", D: dest } } : { Dest: dest }) }));
    pages[0]!.node.set(PDFName.of("Annots"), source.context.obj([link(source.context.obj([pages[2]!.ref, "XYZ", null, null, null]), false)]));
    pages[1]!.node.set(PDFName.of("Annots"), source.context.obj([link(source.context.obj([pages[0]!.ref, "Fit"]), true)]));
    const id = pdf.file(Buffer.from(await source.save()), "linked.pdf", "application/pdf");
    for (const [ranges, from, to] of [
      [undefined, [1, 2], [3, 1]],
      ["3,2,1", [3, 2], [1, 3]],
    ] as const) {
      const merged = await PDFDocument.load(pdf.bytes(await pdf.ok("merge_pdfs", { attachments: [{ artifact_id: id, ...(ranges ? { pages: ranges } : {}) }] })));
      const tree = merged.getPages().map((page) => page.ref);
      const targets = from.map((n) => {
        const annot = merged.context.lookup(merged.getPages()[n - 1]!.node.Annots()!.get(0), PDFDict);
        const dest = annot.lookup(PDFName.of("Dest")) ?? annot.lookup(PDFName.of("A"), PDFDict).lookup(PDFName.of("D"));
        return tree.indexOf((dest as PDFArray).get(0) as PDFRef) + 1;
      });
      expect(targets, ranges).toEqual([...to]);
      // Three pages, each once: no copy outside the page tree.
      const pageObjects = merged.context.enumerateIndirectObjects().filter(([, object]) => object instanceof PDFDict && object.get(PDFName.of("Type")) === PDFName.of("Page"));
      expect(pageObjects.length, ranges).toBe(3);
    }
  });

  it("reads a file's outline and named destinations once each, however they loop", async () => {
    const doc = await PDFDocument.load(await labelledPdf("Loops", 2));
    const { context } = doc;
    const page = doc.getPages()[1]!.ref;
    // An outline item that is its own next and its own first child, and a name tree that is its own kid.
    const item = context.obj({ Title: PDFHexString.fromText("Again"), Dest: [page, "Fit"] });
    const itemRef = context.register(item);
    item.set(PDFName.of("Next"), itemRef);
    item.set(PDFName.of("First"), itemRef);
    doc.catalog.set(PDFName.of("Outlines"), context.register(context.obj({ Type: "Outlines", First: itemRef, Last: itemRef })));
    const tree = context.obj({ Names: [PDFHexString.fromText("p2"), context.obj([page, "Fit"])] });
    const treeRef = context.register(tree);
    tree.set(PDFName.of("Kids"), context.obj([treeRef]));
    doc.catalog.set(PDFName.of("Names"), context.obj({ Dests: treeRef }));
    const link = context.obj({ Type: "Annot", Subtype: "Link", Rect: [0, 0, 10, 10], A: { S: "GoTo", D: PDFHexString.fromText("p2") } });
    doc.getPages()[0]!.node.set(PDFName.of("Annots"), context.obj([context.register(link)]));
    const id = pdf.file(Buffer.from(await doc.save()), "loops.pdf", "application/pdf");
    const merged = await PDFDocument.load(pdf.bytes(await pdf.ok("merge_pdfs", { attachments: [{ artifact_id: id }] })));
    expect(outline(merged)).toEqual(["loops.pdf → 1", "  Again → 2"]);
    const action = merged.context.lookup(merged.getPages()[0]!.node.Annots()!.get(0), PDFDict).lookup(PDFName.of("A"), PDFDict);
    expect(action.lookup(PDFName.of("D"), PDFArray).get(0)).toBe(merged.getPages()[1]!.ref);
  });
});

describe("extract_pdf_text", () => {
  it("reads a page range of several files, numbering pages as printed", async () => {
    const one = pdf.file(await labelledPdf("One", 5), "one.pdf", "application/pdf");
    const two = pdf.file(await labelledPdf("Two", 3), "two.pdf", "application/pdf");
    const out = await extract({ attachments: [{ artifact_id: one }, { artifact_id: two }], pages: "2-3" });
    expect(out.files).toEqual([
      { filename: "one.pdf", total_pages: 5 },
      { filename: "two.pdf", total_pages: 3 },
    ]);
    expect(out.total_pages).toBe(8);
    expect(out.pages).toEqual([
      { file: 0, page: 2, text: "One page 2" },
      { file: 0, page: 3, text: "One page 3" },
      { file: 1, page: 2, text: "Two page 2" },
      { file: 1, page: 3, text: "Two page 3" },
    ]);
    // One range for files of different lengths is cut to each: "4-" reads pages 4 and 5 of the first.
    const cut = await extract({ attachments: [{ artifact_id: one }, { artifact_id: two }], pages: "4-" });
    expect(cut.pages.map((p) => p.text)).toEqual(["One page 4", "One page 5"]);
    // A range past every file's end is refused, not an empty answer.
    expect(await pdf.fails("extract_pdf_text", { attachments: [{ artifact_id: one }, { artifact_id: two }], pages: "6-" })).toBe('pages: "6-" names no page of any file; the longest has 5 pages');
  });

  it("takes the same pages given on every file as the pages to read from each, and refuses different ones", async () => {
    const one = pdf.file(await labelledPdf("One", 3), "one.pdf", "application/pdf");
    const two = pdf.file(await labelledPdf("Two", 3), "two.pdf", "application/pdf");
    const out = await extract({
      attachments: [
        { artifact_id: one, pages: "2" },
        { artifact_id: two, pages: "2" },
      ],
    });
    expect(out.pages.map((p) => p.text)).toEqual(["One page 2", "Two page 2"]);
    expect(
      await pdf.fails("extract_pdf_text", {
        attachments: [
          { artifact_id: one, pages: "1" },
          { artifact_id: two, pages: "2" },
        ],
      }),
    ).toBe('invalid arguments for extract_pdf_text: attachments[0]: unknown key "pages" (it takes: artifact_id); attachments[1]: unknown key "pages" (it takes: artifact_id)');
  });

  it("stops at max_chars and says so", async () => {
    const id = pdf.file(await labelledPdf("Long", 40), "long.pdf", "application/pdf");
    const out = await extract({ attachments: [{ artifact_id: id }], max_chars: 100 });
    expect(out.truncated).toBe(true);
    expect(out.pages.map((p) => p.text).join("").length).toBe(100);
    // Nine pages of "Long page n" (11 characters each) and the first character of the tenth.
    expect(out.pages.map((p) => p.text).slice(-2)).toEqual(["Long page 9", "L"]);
  });

  it("cuts a page with far more text than max_chars and keeps serving (the cut page's stream closed the process)", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    // Three pages of 100 lines of 80 characters: 8,000 each, more than max_chars and the 4,096 read past it.
    for (let p = 1; p <= 3; p++) {
      const page = doc.addPage([600, 820]);
      for (let l = 0; l < 100; l++) page.drawText(`P${p} L${String(l).padStart(2, "0")} ${"abcdefghij".repeat(7)}x`.padEnd(80, "y"), { x: 10, y: 810 - l * 8, size: 6, font });
    }
    const id = pdf.file(Buffer.from(await doc.save()), "dense.pdf", "application/pdf");
    for (const max of [100, 2_000]) {
      const out = await extract({ attachments: [{ artifact_id: id }], max_chars: max });
      expect(out.truncated).toBe(true);
      expect(out.pages.map((p) => p.text).join("").length).toBe(max);
    }
    expect((await extract({ attachments: [{ artifact_id: id }], pages: "3" })).pages[0]!.text).toContain("P3 L99");
  });

  it("never cuts a character in two at max_chars (an emoji is two UTF-16 units)", async () => {
    const created = await pdf.ok("create_pdf_document", { title: "Emoji", sections: [{ heading: "E", content: [`A${"😀🎉👍".repeat(60)}`] }] });
    for (const max of [100, 101, 102, 103]) {
      const out = await extract({ attachments: [{ artifact_id: artifactId(created) }], max_chars: max });
      const text = out.pages.map((p) => p.text).join("");
      expect(text).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(text.length).toBeLessThanOrEqual(max);
    }
  });

  it("keeps the result under Selu's ~48 KiB by bytes too: Cyrillic takes two bytes a letter", async () => {
    const cyrillic = "Съешь же ещё этих мягких французских булок, да выпей чаю. ".repeat(60);
    const created = await pdf.ok("create_pdf_document", { title: "Длинный текст", sections: Array.from({ length: 12 }, (_, s) => ({ heading: `Раздел ${s + 1}`, content: [cyrillic] })) });
    const outcome = await pdf.call("extract_pdf_text", { attachments: [{ artifact_id: artifactId(created) }], max_chars: 40_000 });
    if (!outcome.ok) throw new Error(outcome.error);
    const out = outcome.result as unknown as Extracted;
    expect(out.truncated).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(outcome.result))).toBeLessThan(48 * 1024);
    expect(out.pages.map((p) => p.text).join("").length).toBeLessThan(40_000);
  });

  it("refuses a page past the end, naming the range and the page count", async () => {
    const id = pdf.file(await labelledPdf("Short", 2), "short.pdf", "application/pdf");
    expect(await pdf.fails("extract_pdf_text", { attachments: [{ artifact_id: id }], pages: "1-5" })).toBe("pages: asks for page 5, but the document has 2 pages");
  });

  it("refuses a malformed range by its schema", async () => {
    const id = pdf.file(await labelledPdf("X", 1), "x.pdf", "application/pdf");
    expect(await pdf.fails("extract_pdf_text", { attachments: [{ artifact_id: id }], pages: "first three" })).toMatch(/pages: expected page numbers from 1/);
  });

  it("reads at most 500 pages of a file per call: a longer range is refused, no range stops there", async () => {
    const id = pdf.file(await labelledPdf("Many", 501), "many.pdf", "application/pdf");
    expect(await pdf.fails("extract_pdf_text", { attachments: [{ artifact_id: id }], pages: "1-501" })).toBe(
      "pages: asks for 501 pages of attachments[0]; at most 500 are read per call, give a smaller range",
    );
    const all = await extract({ attachments: [{ artifact_id: id }] });
    expect(all.pages).toHaveLength(500);
    expect(all.truncated).toBe(true);
    expect((await extract({ attachments: [{ artifact_id: id }], pages: "501" })).pages).toEqual([{ file: 0, page: 501, text: "Many page 501" }]);
  });

  it("refuses max_chars over its bound", async () => {
    const id = pdf.file(await labelledPdf("X", 1), "x.pdf", "application/pdf");
    expect(await pdf.fails("extract_pdf_text", { attachments: [{ artifact_id: id }], max_chars: 1_000_000 })).toMatch(/max_chars: Too big/);
  });
});

describe("merge_pdfs", () => {
  it("takes each file's own page ranges, repeating pages when asked", async () => {
    const one = pdf.file(await labelledPdf("One", 4), "one.pdf", "application/pdf");
    const two = pdf.file(await labelledPdf("Two", 4), "two.pdf", "application/pdf");
    const merged = await pdf.ok("merge_pdfs", {
      attachments: [
        { artifact_id: one, pages: "4,1" },
        { artifact_id: two, pages: "2-" },
        { artifact_id: one, pages: "1" },
      ],
    });
    expect(merged.pages).toBe(6);
    expect(merged.artifact).toMatchObject({ filename: "merged.pdf" });
    const texts = pdfPageTexts(pdf.bytes(merged)).map((t) => t.trim());
    expect(texts).toEqual(["One page 4", "One page 1", "Two page 2", "Two page 3", "Two page 4", "One page 1"]);
  });

  it("refuses a bad range on one attachment, naming it", async () => {
    const one = pdf.file(await labelledPdf("One", 2), "one.pdf", "application/pdf");
    expect(await pdf.fails("merge_pdfs", { attachments: [{ artifact_id: one }, { artifact_id: one, pages: "3-1" }] })).toBe(
      "attachments[1].pages: 3-1 runs backwards; write 1-3, or 3,2,1 for the pages in reverse order",
    );
    expect(await pdf.fails("merge_pdfs", { attachments: [{ artifact_id: one, pages: "0" }] })).toBe("attachments[0].pages: pages are numbered from 1");
    // A number where a string is advertised is already refused by the orchestrator's schema check.
    expect(await pdf.fails("merge_pdfs", { attachments: [{ artifact_id: one, pages: 2 }] })).toBe(
      "Tool argument validation failed for 'catalogue-pdf__merge_pdfs': $.attachments[0].pages expected string. Regenerate this tool call with a valid argument shape.",
    );
  });

  it("takes a file's pages by another name, and refuses a key it has no use for, naming what a file takes", async () => {
    const one = pdf.file(await labelledPdf("One", 3), "one.pdf", "application/pdf");
    const merged = await pdf.ok("merge_pdfs", {
      attachments: [
        { artifact_id: one, page: "2" },
        { artifact_id: one, page_range: "3" },
      ],
    });
    expect(pdfPageTexts(pdf.bytes(merged)).map((t) => t.trim())).toEqual(["One page 2", "One page 3"]);
    // Ignored, a rotation the tool can't do would have been a success that did not do it.
    expect(await pdf.fails("merge_pdfs", { attachments: [{ artifact_id: one, rotate: 90 }] })).toBe(
      'invalid arguments for merge_pdfs: attachments[0]: unknown key "rotate" (it takes: artifact_id, pages)',
    );
  });

  it("refuses more than 1,000 pages in all", async () => {
    const big = pdf.file(await labelledPdf("Big", 600), "big.pdf", "application/pdf");
    expect(await pdf.fails("merge_pdfs", { attachments: [{ artifact_id: big }, { artifact_id: big }] })).toBe("the merged PDF would have more than 1000 pages; merge fewer pages");
  });
});

describe("inputs that are not readable PDFs", () => {
  for (const tool of ["extract_pdf_text", "merge_pdfs"]) {
    it(`${tool} refuses a file that is not a PDF, whatever its name says`, async () => {
      const id = pdf.file(gradientPng(10, 10), "report.pdf", "application/pdf");
      expect(await pdf.fails(tool, { attachments: [{ artifact_id: id }] })).toBe("attachments[0] (report.pdf): is not a PDF (its content does not start with %PDF-); attach a PDF file");
    });

    it.each(["aes-256", "rc4-128"] as const)(`${tool} refuses a PDF that needs a password clearly (%s)`, async (how) => {
      const id = pdf.file(encryptPdf(await labelledPdf("Secret", 1), "secret", how), "secret.pdf", "application/pdf");
      expect(await pdf.fails(tool, { attachments: [{ artifact_id: id }] })).toMatch(
        /^attachments\[0\] \(secret\.pdf\): the PDF needs a password to open, so it can't be (read|merged); attach an unencrypted copy, e\.g\. printed to a new PDF$/,
      );
    });

    it.each(["rc4-40", "rc4-128", "aes-128", "aes-256"] as const)(`${tool} reads a PDF that opens without a password, its owner password only restricting it (%s, object streams)`, async (how) => {
      const id = pdf.file(encryptPdf(await labelledPdf("Statement", 3), "", how), "statement.pdf", "application/pdf");
      if (tool === "extract_pdf_text") {
        const result = await pdf.ok(tool, { attachments: [{ artifact_id: id }] });
        expect((result.pages as { text: string }[]).map((page) => page.text.trim())).toEqual(["Statement page 1", "Statement page 2", "Statement page 3"]);
      } else {
        const merged = pdf.bytes(await pdf.ok(tool, { attachments: [{ artifact_id: id, pages: "3,1" }] }));
        expect(pdfPageTexts(merged).map((text) => text.trim())).toEqual(["Statement page 3", "Statement page 1"]);
        expect(merged.toString("latin1")).not.toContain("/Encrypt");
      }
    });

    it(`${tool} leaves out a page whose object is damaged, keeps the others' numbers, and says so`, async () => {
      const id = pdf.file(await withDamagedPage(await labelledPdf("Ledger", 3), 2), "ledger.pdf", "application/pdf");
      const note = /^attachments\[0\] \(ledger\.pdf\): page 2 is damaged and can't be read( \(.+\))?, so it was left out$/;
      if (tool === "extract_pdf_text") {
        const out = (await extract({ attachments: [{ artifact_id: id }] })) as Extracted & { notes: string[] };
        expect(out.files).toEqual([{ filename: "ledger.pdf", total_pages: 3 }]);
        expect(out.pages.map((p) => [p.page, p.text.trim()])).toEqual([
          [1, "Ledger page 1"],
          [3, "Ledger page 3"],
        ]);
        expect(out.notes).toHaveLength(1);
        expect(out.notes[0]).toMatch(note);
      } else {
        const result = await pdf.ok(tool, { attachments: [{ artifact_id: id, pages: "3,2,1" }] });
        expect(pdfPageTexts(pdf.bytes(result)).map((text) => text.trim())).toEqual(["Ledger page 3", "Ledger page 1"]);
        expect(result.pages).toBe(2);
        expect(result.notes).toEqual([expect.stringMatching(note)]);
        expect(await pdf.fails(tool, { attachments: [{ artifact_id: id, pages: "2" }] })).toBe(
          "attachments[0] (ledger.pdf): page 2 is damaged and can't be read; the PDF has no other page to merge in that range",
        );
      }
    });

    it(`${tool} refuses a damaged PDF clearly`, async () => {
      const id = pdf.file(Buffer.from("%PDF-1.7\nthis is not really a PDF\n%%EOF\n"), "broken.pdf", "application/pdf");
      expect(await pdf.fails(tool, { attachments: [{ artifact_id: id }] })).toMatch(/^attachments\[0\] \(broken\.pdf\): the PDF is damaged and can't be read/);
      // A web page saved with a PDF's header: the library's own slip is not what the user reads.
      const page = pdf.file(Buffer.from("%PDF-1.4\n<html><body>Not found</body></html>\n"), "page.pdf", "application/pdf");
      const error = await pdf.fails(tool, { attachments: [{ artifact_id: page }] });
      expect(error).toMatch(/^attachments\[0\] \(page\.pdf\): the PDF is damaged and can't be read/);
      expect(error).not.toMatch(/Cannot read properties|undefined/);
    });
  }

  it("merge_pdfs refuses a PDF of no pages, naming it (pdf-lib would have made a blank page of it)", async () => {
    const empty = await PDFDocument.create();
    const id = pdf.file(Buffer.from(await empty.save({ addDefaultPage: false })), "empty.pdf", "application/pdf");
    const one = pdf.file(await labelledPdf("One", 1), "one.pdf", "application/pdf");
    expect(await pdf.fails("merge_pdfs", { attachments: [{ artifact_id: one }, { artifact_id: id }] })).toBe("attachments[1] (empty.pdf): the PDF has no pages; leave it out");
  });
});

describe("a PDF whose page tree lists itself", () => {
  // Opens fine (the header, xref and catalog are sound); reading page 1 walks a circular /Kids.
  const circular = () => {
    const objects = [
      "<< /Type /Catalog /Pages 2 0 R >>",
      "<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>",
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>",
      "<< /Length 0 >>\nstream\n\nendstream",
    ];
    let out = "%PDF-1.4\n";
    const offsets: number[] = [];
    objects.forEach((o, i) => (offsets.push(out.length), (out += `${i + 1} 0 obj\n${o}\nendobj\n`)));
    const xref = out.length;
    out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
    out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(out, "latin1");
  };

  it("is refused naming the file and the loop, not as an internal error", async () => {
    const id = pdf.file(circular(), "loop.pdf", "application/pdf");
    // The tree is walked (each node once) before any page is read, so the loop is found whatever the range.
    for (const pages of ["1", "2"]) {
      expect(await pdf.fails("extract_pdf_text", { attachments: [{ artifact_id: id }], pages })).toBe(
        "attachments[0] (loop.pdf): the PDF is damaged and can't be read (its page tree lists the same page node more than once)",
      );
    }
  });
});

describe("the process's output", () => {
  it("has no warnings from pdf.js about the canvas package left out on purpose", () => {
    expect(pdf.proc.output()).not.toMatch(/napi-rs\/canvas|Cannot polyfill/);
  });
});
