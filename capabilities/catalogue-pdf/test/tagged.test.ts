import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installStandIns } from "@selu-catalogue/kit";
import { gradientPng } from "./fixtures/png.js";
import { startPdf, type PdfHarness } from "./support/harness.js";
import { pageContent } from "./support/glyphs.js";
import { pdfInfo, qpdfCheck } from "./support/poppler.js";

// Issue 17 item 4: tagged PDF. The structure tree is read back by pdf.js (getStructTree), not by the
// library that wrote it, and its shape checked for a document with every block kind.
let pdf: PdfHarness;
beforeAll(async () => {
  pdf = await startPdf();
}, 30_000);
afterAll(() => pdf?.stop());

interface Node {
  role?: string;
  alt?: string;
  lang?: string;
  type?: string;
  children?: Node[];
}

/** The structure tree of each page as pdf.js reads it, whether content is marked, and the document's language. */
async function structTrees(bytes: Buffer): Promise<{ trees: Node[]; marked: boolean; language: unknown }> {
  installStandIns();
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = getDocument({ data: new Uint8Array(bytes) });
  const doc = await task.promise;
  const trees: Node[] = [];
  for (let p = 1; p <= doc.numPages; p++) trees.push((await (await doc.getPage(p)).getStructTree()) as Node);
  const marked = ((await doc.getMarkInfo()) as Map<string, unknown> | null)?.get("Marked") === true;
  const { info } = await doc.getMetadata();
  await task.destroy();
  return { trees, marked, language: (info as { Language?: unknown }).Language };
}

/** The annotations of the first `pages` pages as pdf.js reads them: description, structure parent, target. */
async function annotationsOf(bytes: Buffer, pages = 1): Promise<{ contentsObj?: { str: string }; structParent?: number; url?: string }[]> {
  installStandIns();
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = getDocument({ data: new Uint8Array(bytes) });
  const doc = await task.promise;
  const annotations = [];
  for (let p = 1; p <= Math.min(pages, doc.numPages); p++) annotations.push(...(await (await doc.getPage(p)).getAnnotations()));
  await task.destroy();
  return annotations;
}

/** Text-showing operators outside any marked content (a depth that goes below zero counts as a mismatched EMC). */
function unmarkedText(content: string): number {
  let depth = 0;
  let unmarked = 0;
  for (const [op] of content.matchAll(/\b(?:BDC|BMC|EMC|Tj|TJ)\b/g)) {
    if (op === "BDC" || op === "BMC") depth++;
    else if (op === "EMC") depth--;
    else if (depth <= 0) unmarked++;
    if (depth < 0) return Number.POSITIVE_INFINITY;
  }
  return unmarked;
}

/** Whether content drawn on the page belongs to the element (pdf.js lists whole subtrees, content per page). */
const hasContent = (node: Node): boolean => (node.children ?? []).some((c) => c.type === "content" || (c.role !== undefined && hasContent(c)));

/** The elements with content on the page, content references left out: `Role[child, child]`, alt text in braces. */
function shape(node: Node): string {
  const children = (node.children ?? []).filter((c) => c.role && hasContent(c)).map(shape);
  return `${node.role}${node.alt ? `{${node.alt}}` : ""}${children.length ? `[${children.join(",")}]` : ""}`;
}

describe("tagged PDF", () => {
  it("has a structure tree with headings, paragraphs, lists, tables, quotes, code and figures with alt text (a figure given none, its file's name)", async () => {
    const chart = pdf.file(gradientPng(300, 120, [40, 110, 200]), "chart.png", "image/png");
    const result = await pdf.ok("create_pdf_document", {
      title: "Tagged",
      subtitle: "Every block",
      language: "en-GB",
      page_numbers: true,
      attachments: [{ artifact_id: chart }],
      sections: [
        {
          heading: "First",
          content: [
            "A paragraph.\n\n### A heading written in the text",
            { type: "list", ordered: true, items: ["one", { text: "two", items: ["two a"] }] },
            {
              type: "table",
              columns: [{ header: "Region" }, { header: "Revenue", align: "right" }],
              rows: [
                ["Zürich", "1"],
                ["Genève", "2"],
              ],
            },
          ],
        },
        {
          heading: "Second",
          content: [
            { type: "quote", text: "Simplicity.", attribution: "Dijkstra" },
            { type: "code", language: "sql", text: "SELECT 1;" },
            { type: "image", attachment_index: 0, caption: "Figure 1", alt: "A blue gradient" },
            { type: "image", attachment_index: 0, caption: "Figure 2" },
            { type: "image", attachment_index: 0 },
          ],
        },
      ],
    });
    const bytes = pdf.bytes(result);
    expect(pdfInfo(bytes).Tagged).toBe("yes");
    const { trees, marked, language } = await structTrees(bytes);
    expect(marked).toBe(true);
    expect(language).toBe("en-GB");
    expect(trees).toHaveLength(1);
    expect(trees[0]!.children).toHaveLength(1);
    expect(shape(trees[0]!.children![0]!)).toBe(
      "Document[H1,P," +
        "Sect[H2,P,H3,L[LI[Lbl,LBody],LI[Lbl,LBody[L[LI[Lbl,LBody]]]]],Table[THead[TR[TH,TH]],TBody[TR[TD,TD],TR[TD,TD]]]]," +
        "Sect[H2,BlockQuote[P],P,Code,Figure{A blue gradient}[Caption],Figure{Figure 2}[Caption],Figure{Image: chart.png}]]",
    );
  });

  it("tags each link as one Link element with its text and its annotations, which its target describes (PDF/UA)", async () => {
    const result = await pdf.ok("create_pdf_document", {
      title: "Links",
      sections: [
        {
          heading: "Where",
          content: [
            "See [the docs](https://example.org/docs) and <https://selu.dev>.",
            { type: "list", items: ["an item with [a link](https://a.example)"] },
            { type: "table", columns: ["Site"], rows: [["[site](https://b.example)"]] },
            "مرحبا [رابط](https://c.example) نص",
            `A link long enough to wrap: [${"words of the link ".repeat(8).trim()}](https://d.example/long), and text after it.`,
            `نص [${"كلمات الرابط الأول ".repeat(6).trim()}](https://e.example/1) و [${"كلمات الرابط الثاني ".repeat(6).trim()}](https://e.example/2) نهاية.`,
          ],
        },
      ],
    });
    const bytes = pdf.bytes(result);
    const { trees } = await structTrees(bytes);
    const links: Node[] = [];
    const walk = (node: Node) => {
      if (node.role === "Link") links.push(node);
      for (const child of node.children ?? []) walk(child);
    };
    walk(trees[0]!);
    // One Link element a link, the wrapped one too (an annotation and a marked piece for each of its lines).
    expect(links).toHaveLength(8);
    for (const link of links.slice(0, 5)) expect((link.children ?? []).map((c) => c.type).sort()).toEqual(["annotation", "content"]);
    expect((links[5]!.children ?? []).map((c) => c.type).sort()).toEqual(["annotation", "annotation", "content", "content"]);
    // The paragraph reads its text, the link, then the text after it.
    const paragraph = trees[0]!.children![0]!.children!.find((c) => c.role === "Sect")!.children!.find((c) => c.role === "P")!;
    expect((paragraph.children ?? []).map((c) => c.role ?? c.type)).toEqual(["content", "Link", "content", "Link", "content"]);
    const annotations = (await annotationsOf(bytes)).map((a) => [a.contentsObj?.str, a.structParent === undefined ? "no parent" : "parent"]);
    // Each described by where it goes.
    expect(annotations).toEqual([
      ["https://example.org/docs", "parent"],
      ["https://selu.dev", "parent"],
      ["https://a.example", "parent"],
      ["https://b.example", "parent"],
      ["https://c.example", "parent"],
      ["https://d.example/long", "parent"],
      ["https://d.example/long", "parent"],
      ...annotations.slice(7),
    ]);
    // The right-to-left links' lines, drawn in visual order, still make one element each.
    expect(new Set(annotations.slice(7).map(([target]) => target))).toEqual(new Set(["https://e.example/1", "https://e.example/2"]));
    expect(qpdfCheck(bytes)).toMatchObject({ ok: true });
  });

  it("draws a link in a table's header as text where the header repeats (an artifact), so every annotation is tagged", async () => {
    const rows = Array.from({ length: 90 }, (_, i) => [`row ${i}`, String(i)]);
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", { title: "T", sections: [{ heading: "H", content: [{ type: "table", columns: ["[Name](https://h.example)", "Value"], rows }] }] }));
    const annotations = await annotationsOf(bytes, 10);
    expect(annotations.filter((a) => a.url?.startsWith("https://h.example"))).toHaveLength(1);
    for (const annotation of annotations) expect(annotation.structParent).toBeDefined();
  });

  it("keeps a right-to-left paragraph that goes on to the next page tagged there", async () => {
    // One piece of text (under PIECE_CHARS) with links in it, that runs on to a second page.
    const paragraph = Array.from({ length: 80 }, (_, i) => `هذه جملة رقم ${i} فيها كلمات و[رابط رقم ${i} فيه كلمات](https://e.org/${i}) ثم كلمات أخرى هنا.`).join(" ");
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", { title: "طويل", sections: [{ heading: "قسم", content: [paragraph] }] }));
    const { trees } = await structTrees(bytes);
    expect(trees.length).toBeGreaterThan(1);
    // Every page shows the paragraph, and no text is drawn outside marked content.
    for (const tree of trees) expect(shape(tree)).toMatch(/\bP\{/);
    for (let page = 0; page < trees.length; page++) expect(unmarkedText(await pageContent(bytes, page)), `page ${page + 1}`).toBe(0);
    expect(qpdfCheck(bytes)).toMatchObject({ ok: true });
  });

  it("gives headings, paragraphs and cells with right-to-left text their text in reading order (their glyphs are drawn in visual order)", async () => {
    const result = await pdf.ok("create_pdf_document", {
      title: "مرحبا بالعالم",
      language: "ar",
      sections: [{ heading: "قسم أول", content: ["هذه فقرة عربية.", { type: "table", columns: ["الاسم", "Price"], rows: [["شاي", "4.5"]] }] }],
    });
    const { trees } = await structTrees(pdf.bytes(result));
    expect(shape(trees[0]!)).toBe("Root[Document[H1{مرحبا بالعالم},Sect[H2{قسم أول},P{هذه فقرة عربية.},Table[THead[TR[TH{الاسم},TH]],TBody[TR[TD{شاي},TD]]]]]]");
  });

  it("tags the contents as TOC entries and a table's repeated header as an artifact, its rows once each", async () => {
    const rows = Array.from({ length: 90 }, (_, i) => [`row ${i}`, String(i)]);
    const result = await pdf.ok("create_pdf_document", {
      title: "Long",
      table_of_contents: true,
      sections: [
        { heading: "Table", content: [{ type: "table", columns: [{ header: "Name" }, { header: "Value" }], rows }] },
        { heading: "After", content: ["Done."] },
      ],
    });
    const bytes = pdf.bytes(result);
    const { trees } = await structTrees(bytes);
    expect(trees.length).toBeGreaterThanOrEqual(4);
    // Each entry reads as its heading and page ("Table 2"), not as the glyphs run together ("Table2").
    // Its heading and page number link to the section: one Link element, its annotations described by the heading.
    expect(shape(trees[0]!.children![0]!)).toBe("Document[H1,H2,TOC[TOCI{Table 2}[Link],TOCI{After 4}[Link]]]");
    expect((await annotationsOf(bytes)).map((a) => [a.contentsObj?.str, a.structParent !== undefined])).toEqual([
      ["Table", true],
      ["Table", true],
      ["After", true],
      ["After", true],
    ]);
    // Each page shows the Table element with the rows drawn on it; only the first has the header cells.
    const tables = trees.slice(1).flatMap((t) => t.children![0]!.children!.filter((c) => c.role === "Sect").flatMap((sect) => sect.children!.filter((c) => c.role === "Table")));
    const roles = tables.map(shape);
    expect(roles[0]).toMatch(/^Table\[THead\[TR\[TH,TH\]\],TBody\[(TR\[TD,TD\],?)+\]\]$/);
    for (const later of roles.slice(1)) expect(later).toMatch(/^Table\[TBody\[(TR\[TD,TD\],?)+\]\]$/);
    const bodyRows = roles.join("").match(/TR\[TD,TD\]/g);
    expect(bodyRows).toHaveLength(90);
    // One object per cell, in the clear, was most of a table's file: they are kept in object streams.
    const raw = bytes.toString("latin1");
    expect(raw).not.toMatch(/\/S \/T[DRH]\b/);
    expect(raw).toMatch(/\/Type \/ObjStm/);
    expect(raw).toMatch(/\/Type \/XRef/);
    expect(qpdfCheck(bytes)).toMatchObject({ ok: true });
  });
});
