import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "./fixtures/png.js";
import { startPdf, type PdfHarness } from "./support/harness.js";
import { flat, pdfInfo, pdfPageTexts, pdfText, pdfWords, type Word } from "./support/poppler.js";
import { type Grey, pageGrey } from "./support/reference-image.js";

// Issue 17 item 2: what a model commonly gets slightly wrong is taken as meant or refused with the exact
// fix, since in Selu a refused call can end the user's turn. Through the production entrypoint.
let pdf: PdfHarness;
beforeAll(async () => {
  pdf = await startPdf();
}, 30_000);
afterAll(() => pdf?.stop());

const INVALID = "invalid arguments for create_pdf_document: ";
const doc = (content: unknown, extra: Record<string, unknown> = {}) => ({ title: "T", sections: [{ heading: "H", content }], ...extra });

describe("blank text", () => {
  it("refuses a whitespace title, naming the field and the fix", async () => {
    expect(await pdf.fails("create_pdf_document", doc(["text"], { title: " \n\t" }))).toBe(`${INVALID}title: is blank; give the document a title, e.g. the subject in a few words`);
  });

  it("refuses a whitespace heading", async () => {
    expect(await pdf.fails("create_pdf_document", { title: "T", sections: [{ heading: "   ", content: ["text"] }] })).toBe(
      INVALID + "sections[0].heading: is blank; give the section a heading, a few words on what it covers",
    );
  });

  it("refuses whitespace paragraphs, list items, quotes and code, each at its own field", async () => {
    const cases: [unknown, string][] = [
      [["fine", "  "], "sections[0].content[1]: is blank; write the paragraph's text or leave the block out"],
      [[{ type: "paragraph", text: "\n\n" }], "sections[0].content[0].text: is blank; write the paragraph's text or leave the block out"],
      [[{ type: "list", items: ["a", " "] }], "sections[0].content[0].items[1]: is blank; write the item's text or leave the item out"],
      [[{ type: "quote", text: " " }], "sections[0].content[0].text: is blank; write the quoted text or leave the block out"],
      [[{ type: "code", text: "\n" }], "sections[0].content[0].text: is blank; write the code or leave the block out"],
      [" ", "sections[0].content: is blank; write the paragraph's text or leave the block out"],
    ];
    for (const [content, error] of cases) expect(await pdf.fails("create_pdf_document", doc(content))).toBe(INVALID + error);
  });

  it("refuses a title or heading that is only markup, naming the field", async () => {
    expect(await pdf.fails("create_pdf_document", doc(["text"], { title: "<br>" }))).toMatch(/^title: has no text once its markup is read/);
    expect(await pdf.fails("create_pdf_document", { title: "T", sections: [{ heading: "<b></b>", content: ["x"] }] })).toMatch(/^sections\[0\]\.heading: has no text/);
    // Joiners draw nothing: a title of them alone would be an empty one.
    expect(await pdf.fails("create_pdf_document", doc(["text"], { title: "\u200D\u200C\u2060" }))).toMatch(/^title: has no text once its markup is read/);
  });

  it("takes a blank subtitle, footer, author or keyword as left out", async () => {
    const result = await pdf.ok("create_pdf_document", doc(["Body"], { subtitle: " ", footer: "  ", author: "\t", keywords: ["pdf", " ", "", " report "] }));
    expect(flat(pdfText(pdf.bytes(result))).trim()).toBe("T H Body Page 1 of 1");
    expect(pdfInfo(pdf.bytes(result)).Keywords).toBe("pdf, report");
  });
});

describe("content as meant", () => {
  it("reads null of every optional field inside blocks, lists, columns and images as left out, as Selu passes a model's nulls", async () => {
    const image = pdf.file(gradientPng(40, 20), "chart.png", "image/png");
    const content = [
      { type: "list", ordered: null, items: ["one", null, { text: "two", items: [null, "two a"] }] },
      null,
      { type: "quote", text: "Said.", attribution: null },
      { type: "code", text: "x = 1", language: null },
      // Keys of other document models, null: a table's caption or a block's style say nothing.
      { type: "table", columns: [{ header: "A", align: null }], rows: [["1"]], caption: null, style: null },
      { type: "image", attachment_index: 0, url: null, caption: null, alt: null, width: null },
    ];
    const result = await pdf.ok("create_pdf_document", doc(content, { subtitle: null, attachments: [{ artifact_id: image }] }));
    expect(flat(pdfText(pdf.bytes(result)))).toContain("• one • two ◦ two a");
  });

  it("breaks the line where a <br> or line feed comes before bold, italic, code or a link, in a cell and in a paragraph", async () => {
    const cells = ["A<br>*B*", "C\n**D**", "E<br>`F`", "G<br>[K](https://example.com)"];
    const result = await pdf.ok("create_pdf_document", doc([{ type: "table", columns: ["Cell"], rows: cells.map((c) => [c]) }, "I<br>`J`"]));
    const lines = pdfText(pdf.bytes(result))
      .split("\n")
      .map((l) => l.trim());
    for (const [a, b] of ["AB", "CD", "EF", "GK", "IJ"]) expect(lines.indexOf(b!), b).toBe(lines.indexOf(a!) + 1);
  });

  it("draws list numbers as written where they don't count on by one: clauses, a date's day, a contract's 2.1 and 2.2", async () => {
    const markdown = "The clauses are:\n4. Payment\n7. Liability\n12. Termination\n\n31. März ist der Stichtag.\n1. April beginnt Q2.";
    const clauses = { type: "list", ordered: true, items: ["2.1 This Agreement commences on the Effective Date.", { text: "2.2 Either party may terminate:", items: ["2.2.1 for convenience;"] }] };
    const text = flat(pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc([markdown, clauses])))));
    for (const written of ["4. Payment 7. Liability 12. Termination", "31. März", "1. April", "2.1 This Agreement", "2.2 Either", "2.2.1 for convenience"]) expect(text).toContain(written);
    expect(text).not.toMatch(/1\. 2\.1|32\. April|5\. Liability/);
  });

  it("sets sections without a heading as text (a letter), with no outline or contents entry of their own, and takes a section's keys by other names", async () => {
    const letter = await pdf.ok("create_pdf_document", {
      title: "Letter to Ms Weber",
      table_of_contents: true,
      sections: [{ content: ["Dear Ms Weber,", "Thank you for your letter."] }, { heading: "Terms", content: ["Net 30."] }, { content: ["Kind regards,\nJohn Roe"] }],
    });
    const bytes = pdf.bytes(letter);
    const text = flat(pdfText(bytes));
    expect(text).toMatch(/Dear Ms Weber, Thank you for your letter\. .*Terms Net 30\. Kind regards, John Roe/);
    // One contents entry (the one heading), and one bookmark.
    expect(text.match(/Terms/g)).toHaveLength(2);
    const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const task = getDocument({ data: new Uint8Array(bytes) });
    expect(((await (await task.promise).getOutline()) ?? []).map((o) => o.title)).toEqual(["Terms"]);
    await task.destroy();
    // No heading anywhere: no contents page.
    const plain = await pdf.ok("create_pdf_document", { title: "Note", table_of_contents: true, sections: [{ content: ["Just a note."] }] });
    expect(plain.pages).toBe(1);
    expect(flat(pdfText(pdf.bytes(plain)))).not.toContain("Contents");
    const slips = await pdf.ok("create_pdf_document", {
      title: "R",
      sections: [
        { title: "Intro", body: "One.\n\nTwo." },
        { heading: "Next", paragraphs: ["Three."] },
      ],
    });
    expect(flat(pdfText(pdf.bytes(slips)))).toMatch(/Intro One\. Two\. Next Three\./);
    expect(await pdf.fails("create_pdf_document", { title: "R", sections: [{ heading: "Intro" }] })).toBe("sections[0]: has no content; give its text as `content`, a list of blocks or one string");
  });

  it("fills a short row with empty cells, a total's amount under the last column, and names every row too long", async () => {
    const columns = ["Item", "Qty", "Unit price", "Total"];
    const rows = [["Consulting", "12", "€150.00", "€1,800.00"], ["Travel"], ["Subtotal", "€1,800.00"], ["Note", "by train"]];
    const words = pdfWords(pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "table", columns, rows }]))));
    const at = (text: string, nth = 0) => words.filter((w) => w.text === text)[nth]!;
    // The subtotal lines up with the amounts of its column; "by train" goes under Qty, after "Note".
    expect(Math.abs(at("€1,800.00", 1).xMax - at("€1,800.00").xMax)).toBeLessThan(0.5);
    expect(at("€1,800.00", 1).yMin).toBeGreaterThan(at("Subtotal").yMin - 1);
    expect(Math.abs(at("by").xMin - at("Qty").xMin)).toBeLessThan(20);
    const long = Array.from({ length: 7 }, (_, r) => ["a", "1", "2", "3", String(r)]);
    expect(await pdf.fails("create_pdf_document", doc([{ type: "table", columns, rows: [rows[0], ...long] }]))).toBe(
      "sections[0].content[0]: the table has 4 columns, but rows[1] has 5, rows[2] has 5, rows[3] has 5, rows[4] has 5, rows[5] has 5 and 2 more rows have more; give each row one string per column, or add columns for the extra cells",
    );
  });

  it("takes numbers in table cells, headers given as strings, options in another case and en_US as meant", async () => {
    const table = {
      type: "Table",
      columns: ["Item", { header: "Price", align: "Right" }],
      rows: [
        ["Tea", 4.5],
        ["Cake", 12],
      ],
    };
    const result = await pdf.ok("create_pdf_document", doc([table], { page_size: "a4", orientation: "Landscape", language: "en_US" }));
    const bytes = pdf.bytes(result);
    expect(pdfText(bytes, { layout: true })).toMatch(/Tea\s+4\.5\n\s*Cake\s+12/);
    expect(pdfInfo(bytes)["Page size"]).toMatch(/^841\.89 x 595\.28 pts \(A4\)/);
  });

  it("reads form feeds and Unicode's line and paragraph separators in pasted text as breaks", async () => {
    const result = await pdf.ok("create_pdf_document", doc(["Page one ends.\fPage two\u2028line two.\u2029Next."]));
    expect(pdfText(pdf.bytes(result))).toContain("Page one ends.\nPage two\nline two.\nNext.");
  });

  it("takes a file name in the letters of the document's script, as the default one from its title keeps them", async () => {
    for (const filename of ["报告.pdf", "تقرير.pdf", "Отчёт 2026.pdf"]) {
      const result = await pdf.ok("create_pdf_document", doc(["text"], { filename }));
      expect((result.artifact as { filename: string }).filename).toBe(filename);
    }
    for (const filename of ["a\u061Cb.pdf", "a\u00ADb.pdf", "\u00A0a.pdf", "a\u3164b.pdf", "\uD800.pdf", "a\u{E0041}.pdf"]) {
      expect(await pdf.fails("create_pdf_document", doc(["text"], { filename })), JSON.stringify(filename)).toMatch(/^invalid arguments for create_pdf_document: filename: expected a plain file name/);
    }
    expect(await pdf.fails("create_pdf_document", doc(["text"], { filename: `${"报".repeat(90)}.pdf` }))).toBe(
      `${INVALID}filename: is longer than 255 bytes in UTF-8, as file systems allow; shorten it`,
    );
  });

  it("still names a null where a field is required", async () => {
    expect(await pdf.fails("create_pdf_document", doc([{ type: "quote", text: null }]))).toMatch(/^invalid arguments for create_pdf_document: sections\[0\]\.content\[0\]\.text: /);
  });

  it("reads one string instead of the content list as paragraphs split at blank lines", async () => {
    const result = await pdf.ok("create_pdf_document", doc("First paragraph.\n\nSecond paragraph,\nwith a line break."));
    // Two paragraphs, not one with an empty line in it (which pdftotext would show as a blank line).
    expect(pdfText(pdf.bytes(result))).toContain("First paragraph.\nSecond paragraph,\nwith a line break.");
  });

  it("renders a markdown table written in a paragraph as a table, and markdown lists as lists", async () => {
    const table = "Revenue by region:\n\n| Region | Revenue |\n|---|---:|\n| Zürich | 12,345 |\n| Αθήνα | 2 |";
    const result = await pdf.ok("create_pdf_document", doc([table, "- one\n- two"]));
    const text = pdfText(pdf.bytes(result), { layout: true });
    expect(text).not.toContain("|");
    expect(text).not.toContain("---");
    expect(text).toMatch(/Zürich\s+12,345/);
    expect(text).toMatch(/•\s+one\n\s*•\s+two/);
  });

  it("numbers steps that go on after a code block from where they left off, and reads lists among text and with blank lines between items", async () => {
    const steps = "1. Clone the repository\n2. Install dependencies:\n\n```bash\nnpm install\n```\n\n3. Copy the example config\n4. Start the server";
    const loose = "Intro line\n- bullet a\n\n- bullet b\nSome closing sentence.";
    const out = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc([steps, loose, { type: "list", ordered: true, start: 7, items: ["seventh"] }]))), { layout: true });
    expect(out).toMatch(/1\.\s+Clone the repository\s+2\.\s+Install dependencies:\s+bash\s+npm install\s+3\.\s+Copy the example config\s+4\.\s+Start the server/);
    expect(out).toMatch(/Intro line\s+•\s+bullet a\s+•\s+bullet b\s+Some closing sentence\./);
    expect(out).toMatch(/7\.\s+seventh/);
  });

  it("renders markdown headings, a list after its lead-in, nested items, fenced code and underscore emphasis as meant", async () => {
    const text = "## Background\nShopping:\n- eggs\n  - brown\n- milk\n\n```python\nx = 1\n```\n\nSee __this__ and _that_ at <https://example.org>.";
    const result = await pdf.ok("create_pdf_document", doc(text));
    const out = pdfText(pdf.bytes(result), { layout: true });
    for (const marker of ["##", "```", "__", "<https"]) expect(out).not.toContain(marker);
    expect(out).toMatch(/Background\s+Shopping:\s+•\s+eggs\s+◦\s+brown\s+•\s+milk/);
    expect(out).toMatch(/python\s+x = 1/);
    expect(flat(out)).toContain("See this and that at https://example.org.");
    // The same written with CR LF line ends, and with Unicode line separators.
    for (const ends of ["\r\n", "\u2028"]) {
      const again = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc(text.replaceAll("\n", ends)))), { layout: true });
      expect(again, JSON.stringify(ends)).toMatch(/Background\s+Shopping:\s+•\s+eggs\s+◦\s+brown\s+•\s+milk/);
    }
  });

  it("renders markdown strikethrough, task lists, rules, quotes, <br> in a cell, HTML tags and entities as meant", async () => {
    const content = [
      "Price: ~~ninety~~ sixty francs.",
      "Tasks:\n- [ ] open one\n- [x] done one",
      "Above the rule\n\n---\n\nBelow the rule",
      "> Invent it.\n> — Alan Kay",
      "| Item | Maker |\n|---|---|\n| first<br>second | AT&amp;T |",
      "<b>Total</b> due <s>today</s>",
    ];
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", doc(content)));
    const out = pdfText(bytes, { layout: true });
    for (const marker of ["~~", "[ ]", "[x]", "---", "<br>", "&amp;", ">", "<b>", "<s>"]) expect(out).not.toContain(marker);
    expect(out).toContain("Total due today");
    expect(out).toMatch(/☐ open one\s+•\s+☑ done one/);
    expect(out).toMatch(/Invent it\.\s+— Alan Kay/);
    expect(out).toMatch(/first\s+AT&T\s+second/);
    const words = pdfWords(bytes);
    const word = (text: string) => words.find((w) => w.text === text)!;
    const page = pageGrey(bytes);
    // A line through the struck word's middle, end to end, and none through the word after it.
    expect(inkAcross(page, word("ninety"))).toBe(true);
    expect(inkAcross(page, word("sixty"))).toBe(false);
    // A rule between the paragraphs across the text width, which pdftotext does not read as text.
    const between = { ...word("Above"), xMax: word("Above").xMin + 400, yMin: word("the").yMax, yMax: word("Below").yMin };
    expect(inkAcross(page, between, 250)).toBe(true);
  });

  it("takes block types and keys of other document models as meant (heading, bullet_list, divider, a table's headers, an image's src)", async () => {
    const content = [
      { type: "heading", text: "Intro" },
      { type: "text", content: "Body text." },
      { type: "bullet_list", items: ["one", "two"] },
      { type: "Numbered List", bullets: ["first", "second"] },
      { type: "divider" },
      { type: "table", headers: ["Item", "Price"], data: [["Tea", "4"]] },
      { type: "list", ordered: "true", items: ["x", "y"] },
    ];
    const out = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc(content))), { layout: true });
    expect(out).toMatch(/Intro\s+Body text\.\s+•\s+one\s+•\s+two\s+1\.\s+first\s+2\.\s+second\s+Item\s+Price\s+Tea\s+4\s+1\.\s+x\s+2\.\s+y/);
    expect(out).not.toContain("---");
    // An image's src is its url: the error is the fetch's, at the url field, not an unknown key.
    expect(await pdf.fails("create_pdf_document", doc([{ type: "image", src: "https://images.invalid/a.png" }]))).toMatch(/^sections\[0\]\.content\[0\]\.url: /);
    // A type no model of ours knows is still refused with the types there are, names of an object's own
    // properties too (once an internal error).
    for (const type of ["chart", "toString", "__proto__", "hasOwnProperty"]) {
      expect(await pdf.fails("create_pdf_document", doc([{ type, data: [1] }])), type).toContain("expected paragraph, list, table, quote, code, image or page_break");
    }
  });

  it("takes blank optional fields as left out, a file name without .pdf, list items as numbers, null cells and rows keyed by column", async () => {
    const content = [
      { type: "list", items: [2024, { text: "2025", items: [7] }] },
      { type: "table", columns: ["Name", "Score"], rows: [{ score: 3, Name: "Ada" }, ["Bob", null], { Points: 5, name: "Cy" }] },
    ];
    const result = await pdf.ok("create_pdf_document", doc(content, { language: " ", creation_date: "", filename: "Quarterly Report" }));
    expect((result.artifact as { filename: string }).filename).toBe("Quarterly Report.pdf");
    expect(pdfText(pdf.bytes(result), { layout: true })).toMatch(/•\s+2024\s+•\s+2025\s+◦\s+7\s+Name\s+Score\s+Ada\s+3\s+Bob\s+Cy\s+5\n/);
    expect(((await pdf.ok("create_pdf_document", doc(["x"], { filename: "notes.PDF" }))).artifact as { filename: string }).filename).toBe("notes.pdf");
    expect(((await pdf.ok("create_pdf_document", doc(["x"], { filename: "notes.docx" }))).artifact as { filename: string }).filename).toBe("notes.pdf");
    expect(((await pdf.ok("create_pdf_document", doc(["x"], { filename: "" }))).artifact as { filename: string }).filename).toBe("t.pdf");
  });

  it("puts a row object's values under the columns their keys name in other words, and refuses keys it can't place", async () => {
    const table = (columns: unknown[], rows: unknown[]) => doc([{ type: "table", columns, rows }]);
    // Selu sorts keys, so "growth" comes before "revenue": placed by their words, not their order.
    const named = await pdf.ok(
      "create_pdf_document",
      table(
        ["Name", "Revenue (EUR)", "Growth %"],
        [
          { name: "Alpha", revenue: "100", growth: "5%" },
          { NAME: "Beta", revenue_eur: 1, rate: "2%" },
        ],
      ),
    );
    expect(pdfText(pdf.bytes(named), { layout: true })).toMatch(/Name\s+Revenue \(EUR\)\s+Growth %\s+Alpha\s+100\s+5%\s+Beta\s+1\s+2%\n/);
    const unplaced = await pdf.fails("create_pdf_document", table(["Product", "Qty", "Price"], [["Tea", 2, 4], { item: "Tea", quantity: 2, cost: 4 }]));
    expect(unplaced).toBe(
      `${INVALID}sections[0].content[0].rows[1]: keys "cost", "item", "quantity" match no column ("Product", "Qty", "Price"); ` +
        "key each row by the column headers, or give it as a list of cells in the columns' order",
    );
    expect(await pdf.fails("create_pdf_document", table(["A", "B"], [{ Zeta: "z", Alpha: "a" }]))).toMatch(/rows\[0\]: keys "Alpha", "Zeta" match no column \("A", "B"\)/);
  });

  it("reads a byte order mark (U+FEFF) in pasted text as nothing: words keep their order, a heading line stays a heading", async () => {
    const content = ["\ufeff# Pasted heading\nGreen \ufeffapple pie.", { type: "table", columns: ["\ufeffName"], rows: [["Ann \ufeffLee"]] }];
    const result = await pdf.ok("create_pdf_document", doc(content, { title: "\ufeffQuarterly Report 2026", footer: "\ufeffConfidential" }));
    const text = pdfText(pdf.bytes(result));
    expect(text).toContain("Quarterly Report 2026");
    expect(text).toMatch(/^Pasted heading$/m);
    expect(text).toContain("Green apple pie.");
    expect(text).toMatch(/Name\s+Ann Lee/);
    expect(text).toContain("Confidential");
    expect(text).not.toContain("\ufeff");
  });

  it("draws a list's markers once when its items carry their own, and takes a bullet list of numbered items as numbered", async () => {
    const content = [
      { type: "list", ordered: true, items: ["1. First", "2. Second", { text: "3) Third", items: ["- nested"] }] },
      { type: "list", items: ["- a", "• b", "* c"] },
      { type: "list", items: ["4. Four", "5. Five"] },
      { type: "list", items: ["- kept", "no marker"] },
    ];
    const text = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc(content))), { layout: true });
    expect(text).toMatch(/1\.\s+First\s+2\.\s+Second\s+3\.\s+Third\s+a\.\s+- nested\s+•\s+a\s+•\s+b\s+•\s+c\s+4\.\s+Four\s+5\.\s+Five\s+•\s+- kept\s+•\s+no marker/);
  });

  it("nests the list lines written inside one list item under it, and takes an item of list lines throughout as those items", async () => {
    const content = [
      { type: "list", items: ["Phase 1\n  - design\n    - sketches\n  - review", "- ship\n- support"] },
      { type: "list", ordered: true, items: ["Setup\n   1. install\n   2. configure"] },
    ];
    const text = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc(content))), { layout: true });
    expect(text).toMatch(/•\s+Phase 1\s+◦\s+design\s+▪\s+sketches\s+◦\s+review\s+•\s+ship\s+•\s+support\s+1\.\s+Setup\s+a\.\s+install\s+b\.\s+configure/);
    expect(text).not.toContain("- design");
  });

  it("renders HTML paragraphs, headings, lists, tables, quotes and links as meant, not their tags", async () => {
    const html = [
      '<h3>Summary</h3><p>Revenue grew, see <a href="https://example.com/q3">the Q3 report</a>.</p>',
      "<ul>\n  <li>North</li>\n  <li>South<ul><li>Coast</li></ul></li>\n</ul>",
      "<table><tr><th>Region</th><th>Revenue</th></tr><tr><td>North</td><td>1,200</td></tr></table>",
      "<blockquote>Growth is back.</blockquote>",
    ].join("\n");
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", doc([html])));
    const text = pdfText(bytes, { layout: true });
    expect(text).toMatch(/Summary\s+Revenue grew, see the Q3 report\.\s+•\s+North\s+•\s+South\s+◦\s+Coast\s+Region\s+Revenue\s+North\s+1,200\s+Growth is back\./);
    expect(text).not.toMatch(/<\/?(?:h3|p|a|ul|li|table|tr|td|th|blockquote)\b/);
    expect(bytes.toString("latin1")).toContain("/URI (https://example.com/q3)");
  });

  it("takes a file name given as a path by its last part", async () => {
    for (const filename of ["/tmp/reports/q3.pdf", "C:\\Users\\me\\q3.docx", "reports/q3", "../q3.pdf"]) {
      expect(((await pdf.ok("create_pdf_document", doc(["x"], { filename }))).artifact as { filename: string }).filename, filename).toBe("q3.pdf");
    }
    expect(((await pdf.ok("create_pdf_document", doc(["x"], { filename: `${"n".repeat(150)}.pdf` }))).artifact as { filename: string }).filename).toBe(`${"n".repeat(150)}.pdf`);
  });

  it("reads pasted terminal colour codes and other control characters as nothing, and mathematical letters as the letters they style", async () => {
    const content = ["\u001b[31mError:\u001b[0m disk \u0000full\u0007 \u007f(code \u001b[1;32m0\u001b[m)", { type: "table", columns: ["Ｘ"], rows: [["𝑥 = 𝟐"]] }];
    const text = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc(content, { title: "𝐁𝐨𝐥𝐝 𝓡𝓮𝓹𝓸𝓻𝓽" }))));
    expect(text).toContain("Bold Report");
    expect(text).toContain("Error: disk full (code 0)");
    expect(text).toMatch(/x ?= ?2/);
  });

  it("drops a markdown heading's # from titles and headings, reads common named HTML references, and keeps parentheses in a link's target", async () => {
    const content = ["Q3 &mdash; up 5&nbsp;%&hellip; &copy; ACME&trade;, &euro;12 &rarr; &frac12; &unknown; [Rust](https://en.wikipedia.org/wiki/Rust_(programming_language))."];
    const result = await pdf.ok("create_pdf_document", { title: "# Report", sections: [{ heading: "## 1. **Intro**", content }] });
    const text = pdfText(pdf.bytes(result));
    expect(text).toMatch(/^Report\n1\. Intro\n/);
    // The no-break space copies out as a space.
    expect(text).toContain("Q3 — up 5 %… © ACME™, €12 → ½ &unknown; Rust.");
  });

  it("takes more of other models' shapes: a heading's level, callouts and notes, a list's style, items and rows as lines, a table's or list's caption", async () => {
    const content = [
      { type: "heading", level: 2, text: "Next steps" },
      { type: "callout", text: "Remember the deadline." },
      { type: "note", content: "Prices exclude VAT." },
      { type: "list", style: "numbered", items: "Plan\nBuild\n\nShip" },
      { type: "bullet", items: ["one"] },
      { type: "table", caption: "Table 1: Costs", columns: ["Item", "Cost"], rows: ["| Tea | 4 |", "Cake | 3"] },
      { type: "pre", code: "x = 1" },
    ];
    const text = pdfText(pdf.bytes(await pdf.ok("create_pdf_document", doc(content))), { layout: true });
    expect(text).toMatch(/Next steps\s+Remember the deadline\.\s+Prices exclude VAT\.\s+1\.\s+Plan\s+2\.\s+Build\s+3\.\s+Ship\s+•\s+one\s+Table 1: Costs\s+Item\s+Cost\s+Tea\s+4\s+Cake\s+3\s+x = 1/);
  });

  it("names the text a list was read from, not an items field the model never wrote, when it is too long", async () => {
    const lines = Array.from({ length: 600 }, (_, i) => `- item ${i}`).join("\n");
    expect(await pdf.fails("create_pdf_document", doc([lines]))).toBe(
      `${INVALID.replace("invalid arguments for create_pdf_document: ", "")}sections[0].content[0]: a list in this text has more than 500 items, nested ones included; split it into several lists`,
    );
  });

  it("renders 100 KB of pasted text across pages", async () => {
    const words = Array.from({ length: 16_000 }, (_, i) => `word${i}`);
    const text = Array.from({ length: 40 }, (_, p) => words.slice(p * 400, (p + 1) * 400).join(" ")).join("\n\n");
    expect(text.length).toBeGreaterThan(100_000);
    const result = await pdf.ok("create_pdf_document", doc([text]));
    const pages = pdfPageTexts(pdf.bytes(result));
    expect(result.pages).toBeGreaterThan(15);
    expect(pages).toHaveLength(result.pages as number);
    expect(flat(pages.at(-1)!)).toContain("word15999");
  }, 30_000);

  it("sets a paragraph of 100 KB without line breaks as one paragraph: drawn in pieces, no line ends early", async () => {
    const text = Array.from({ length: 16_000 }, (_, i) => `word${i}`).join(" ");
    const result = await pdf.ok("create_pdf_document", doc([text], { page_numbers: false }));
    const lines = pdfPageTexts(pdf.bytes(result))
      .flatMap((page) => page.split("\n"))
      .filter((line) => line.startsWith("word"));
    expect(lines.join(" ").split(" ")).toEqual(text.split(" "));
    const longest = Math.max(...lines.map((line) => line.length));
    // Each line as full as the words allow (the paragraph's last line aside).
    for (const line of lines.slice(0, -1)) expect(line.length, line).toBeGreaterThan(longest - 12);
  }, 30_000);
});

/**
 * Whether one row of pixels in the middle half of a box (points; a pixel a point) is inked from end to
 * end (darker than `below`): a line drawn through it, where letters alone leave gaps.
 */
function inkAcross(page: Grey, box: Pick<Word, "xMin" | "xMax" | "yMin" | "yMax">, below = 160): boolean {
  const quarter = (box.yMax - box.yMin) / 4;
  for (let y = Math.ceil(box.yMin + quarter); y <= Math.floor(box.yMax - quarter); y++) {
    let inked = true;
    for (let x = Math.ceil(box.xMin) + 1; x < Math.floor(box.xMax) - 1 && inked; x++) inked = page.pixels[y * page.width + x]! < below;
    if (inked) return true;
  }
  return false;
}
