import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gradientPng } from "./fixtures/png.js";
import { startPdf, type PdfHarness } from "./support/harness.js";
import { pdfImages, pdfPageTexts, pdfWords } from "./support/poppler.js";
import { pageGrey } from "./support/reference-image.js";

// Issue 17 item 3, layout details, measured in the output with poppler (pdftotext -bbox, pdfimages).
let pdf: PdfHarness;
beforeAll(async () => {
  pdf = await startPdf();
}, 30_000);
afterAll(() => pdf?.stop());

const STYLE_MARGIN = 64;
const doc = (content: unknown[]) => ({ title: "Layout", page_numbers: false, sections: [{ heading: "Section", content }] });

describe("page breaks", () => {
  it("carries at least two items of a list onto its last page, never its last item alone", async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `Item number ${i + 1}`);
    // How many items fit on the first page, then a list of one more: the last item would be alone.
    const probe = pdfPageTexts(pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "list", items: items(80) }]))));
    const fit = probe[0]!.match(/Item number \d+/g)!.length;
    const pages = pdfPageTexts(pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "list", items: items(fit + 1) }]))));
    expect(pages).toHaveLength(2);
    expect(pages[1]!.match(/Item number \d+/g)).toEqual([`Item number ${fit}`, `Item number ${fit + 1}`]);
    expect(pages[0]!.match(/Item number \d+/g)).toHaveLength(fit - 1);
  });

  it("never leaves a page holding only the nested items that end a list, nor a list's first item alone at a page's foot", async () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => `Item number ${i + 1}`);
    const probe = pdfPageTexts(pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "list", items: items(80) }]))));
    const fit = probe[0]!.match(/Item number \d+/g)!.length;
    // The last top-level item's two nested items are what would spill onto page 2.
    const list = { type: "list", items: [...items(fit - 2), { text: "Parent item", items: ["Nested one", "Nested two"] }] };
    const pages = pdfPageTexts(pdf.bytes(await pdf.ok("create_pdf_document", doc([list]))));
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContain("Parent item");
    // A paragraph that leaves room for one item only: the list starts on the next page.
    const filler = "Words that fill the page line after line for the purpose of this test. ".repeat(40);
    const lines = (text: string) => text.split("\n").filter((l) => l.includes("Item number"));
    for (let extra = 0; extra < 12; extra++) {
      const out = pdfPageTexts(pdf.bytes(await pdf.ok("create_pdf_document", doc([filler, `${"Line. ".repeat(extra * 12)}End.`, { type: "list", items: items(6) }]))));
      for (const page of out.slice(0, -1)) expect(lines(page).length === 0 || lines(page).length >= 2, `extra ${extra}`).toBe(true);
    }
  });

  it("keeps a heading on the page of what starts after it: a table's header and first row, an image, the first lines of text", async () => {
    const square = pdf.file(gradientPng(400, 200, [40, 110, 200]), "wide.png", "image/png");
    const table = {
      type: "table",
      columns: ["Quarter", "Revenue"],
      rows: [
        ["Q1 with a row", "1"],
        ["Q2", "2"],
      ],
    };
    const image = { type: "image", attachment_index: 0, width: 1 };
    // Headings pushed down the first page line by line: whatever the filler, a heading never ends a page.
    for (let lines = 30; lines <= 46; lines += 2) {
      const filler = Array.from({ length: lines }, (_, i) => `Filler line ${i + 1}`).join("\n");
      const result = await pdf.ok("create_pdf_document", {
        title: "Keep",
        page_numbers: false,
        sections: [
          { heading: "First", content: [filler] },
          { heading: "Tabled", content: [table] },
          { heading: "Pictured", content: [image] },
          { heading: "Written", content: [`## Inline heading\n${filler}`, "Body after the inline heading."] },
        ],
        attachments: [{ artifact_id: square }],
      });
      const bytes = pdf.bytes(result);
      const words = pdfWords(bytes);
      const pageOf = (text: string) => words.find((w) => w.text === text)!.page;
      expect(pageOf("Tabled"), `${lines} lines: the table's heading`).toBe(pageOf("Quarter"));
      expect(pageOf("Tabled"), `${lines} lines: the table's first row`).toBe(words.find((w) => w.text === "Q1")!.page);
      expect(pageOf("Pictured"), `${lines} lines: the image's heading`).toBe(pdfImages(bytes)[0]!.page);
      const inline = words.filter((w) => w.text === "Inline")[0]!;
      const next = words.find((w) => (w.page > inline.page || (w.page === inline.page && w.yMin > inline.yMax)) && w.text === "Filler")!;
      expect(next.page, `${lines} lines: the inline heading`).toBe(inline.page);
    }
  });

  it("keeps a heading with a heading written under it and its table, and sets a heading above an image too tall to share a page where it is", async () => {
    const table = { type: "table", columns: ["Quarter", "Revenue"], rows: [["Q1", "1"]] };
    for (let lines = 30; lines <= 44; lines += 2) {
      const filler = Array.from({ length: lines }, (_, i) => `Filler line ${i + 1}`).join("\n");
      const sections = [
        { heading: "Intro", content: [filler] },
        { heading: "Results", content: ["### Q3 numbers", table] },
      ];
      const words = pdfWords(pdf.bytes(await pdf.ok("create_pdf_document", { title: "Keep", page_numbers: false, sections })));
      const pageOf = (text: string) => words.find((w) => w.text === text)!.page;
      expect(pageOf("Results"), `${lines} lines`).toBe(pageOf("Quarter"));
      expect(pageOf("Q3"), `${lines} lines`).toBe(pageOf("Quarter"));
    }
    // A run of headings taller than a page flows like text, one heading per page no more (40 took 12 pages),
    // and a run of thousands is no deeper a call than one.
    expect((await pdf.ok("create_pdf_document", { title: "Heads", sections: [{ heading: "S", content: "# h\n".repeat(40) }] })).pages).toBeLessThanOrEqual(2);
    expect((await pdf.ok("create_pdf_document", { title: "Heads", sections: [{ heading: "S", content: "# h\n".repeat(3_000) }] })).pages).toBeLessThan(200);
    // An image nearly a page tall can't share a page with the heading: the heading stays after the title.
    const tall = pdf.file(gradientPng(400, 1200, [40, 110, 200]), "tall.png", "image/png");
    const result = await pdf.ok("create_pdf_document", {
      title: "Tall",
      page_numbers: false,
      sections: [{ heading: "Photo", content: [{ type: "image", attachment_index: 0 }] }],
      attachments: [{ artifact_id: tall }],
    });
    expect(result.pages).toBe(2);
    expect(pdfWords(pdf.bytes(result)).find((w) => w.text === "Photo")!.page).toBe(1);
  });

  it("fills the space an image that moved to the next page leaves with the text after it", async () => {
    const square = pdf.file(gradientPng(400, 400, [40, 110, 200]), "square.png", "image/png");
    const filler = "The quarterly figures are summarised here in plain words for the board. ".repeat(28);
    const after = `After the figure: ${"the text that follows the image goes on for a while. ".repeat(30)}`;
    const result = await pdf.ok("create_pdf_document", {
      ...doc([filler, { type: "image", attachment_index: 0, width: 1, caption: "Figure 1" }, after]),
      attachments: [{ artifact_id: square }],
    });
    const bytes = pdf.bytes(result);
    expect(pdfImages(bytes).map((i) => i.page)).toEqual([2]);
    const words = pdfWords(bytes);
    const firstPage = words.filter((w) => w.page === 1);
    // The text after the image starts on page 1 and fills it to within three lines of its bottom margin.
    expect(firstPage.some((w) => w.text === "After")).toBe(true);
    const lowest = Math.max(...firstPage.map((w) => w.yMax));
    expect(lowest).toBeGreaterThan(firstPage[0]!.pageHeight - STYLE_MARGIN - 3 * 16);
    // The image follows that text: its caption comes after the paragraph's last words.
    const caption = words.find((w) => w.text === "Figure")!;
    const lastAfter = words.filter((w) => w.text === "while.").at(-1)!;
    expect(caption.page).toBe(2);
    expect(lastAfter.page === 1 || lastAfter.yMax < caption.yMin).toBe(true);
  });

  it("fills that space with a quote or a table's start that fit there, before the image, but not with a later image", async () => {
    const square = pdf.file(gradientPng(400, 400, [40, 110, 200]), "square.png", "image/png");
    const small = pdf.file(gradientPng(200, 40, [200, 110, 40]), "small.png", "image/png");
    const filler = "The quarterly figures are summarised here in plain words for the board. ".repeat(28);
    const cases: [string, unknown, number][] = [
      ["QuoteMark", { type: "quote", text: "QuoteMark: a short quotation that fits in the space left." }, 1],
      [
        "TableMark",
        {
          type: "table",
          columns: ["TableMark", "Value"],
          rows: [
            ["a", "1"],
            ["b", "2"],
          ],
        },
        1,
      ],
      // A smaller figure would fit, but figures keep their order: "Figure 2" never before "Figure 1".
      ["SmallMark", { type: "image", attachment_index: 1, width: 0.3, caption: "SmallMark" }, 2],
    ];
    for (const [mark, block, page] of cases) {
      const result = await pdf.ok("create_pdf_document", {
        ...doc([filler, { type: "image", attachment_index: 0, width: 1, caption: "Figure 1" }, block]),
        attachments: [{ artifact_id: square }, { artifact_id: small }],
      });
      const words = pdfWords(pdf.bytes(result));
      expect(words.find((w) => w.text.startsWith(mark))!.page, mark).toBe(page);
      expect(words.find((w) => w.text === "Figure")!.page, mark).toBe(2);
    }
  });
});

describe("line breaks", () => {
  it("keeps a line's last word before a line feed on the line it fills", async () => {
    const lines = async (text: string) =>
      pdfPageTexts(pdf.bytes(await pdf.ok("create_pdf_document", doc([text]))), { layout: true })[0]!
        .split("\n")
        .map((l) => l.trim())
        .filter((l) => l && l !== "Layout" && l !== "Section");
    // Words that fill a line, the last one grown a letter at a time until one more would not fit.
    const words = "lorem ".repeat(12).trim();
    let filler = "i";
    while ((await lines(`${words} ${filler}i`)).length === 1) filler += "i";
    expect(await lines(`${words} ${filler}`)).toEqual([`${words} ${filler}`]);
    // The line feed after it was measured as a box a letter and a half wide, and the word went down a line.
    expect(await lines(`${words} ${filler}\nNext line`)).toEqual([`${words} ${filler}`, "Next line"]);
  });
});

describe("table columns", () => {
  it("wraps the lines of other columns and cuts their long words before an amount or a date breaks", async () => {
    const columns = ["Item", "Documentation URL", "Owner email", "Description", "Status", "Created", "Amount", "Notes"];
    const row = [
      "Customers API",
      "https://docs.example-company.com/api/v2/reference/endpoints/customers",
      "billing@acme-corporation-international.com",
      "Supercalifragilisticexpialidocious",
      "Waiting for review",
      "2026-11-23",
      "$1,234,567.89",
      "ok",
    ];
    const words = pdfWords(pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "table", columns, rows: [row] }]))));
    expect(words.map((w) => w.text)).toEqual(expect.arrayContaining(["$1,234,567.89", "2026-11-23", "Waiting", "review"]));
  });
});

describe("table cells of several lines", () => {
  it("size a column of short lines by its widest line, not by all its text as one", async () => {
    const address = ["Hauptstraße 12", "Building C, 3rd floor", "10115 Berlin", "Germany", "Tel. +49 30 123456", "VAT DE123456789"].join("\n");
    const note = "Preferred supplier for packaging materials since 2019; renegotiate the volume discount in Q3 and check delivery performance.";
    const words = pdfWords(pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "table", columns: ["Supplier", "Address", "Notes"], rows: [["Acme GmbH", address, note]] }]))));
    const x = (text: string) => words.find((w) => w.text === text)!.xMin;
    // The address column is about its widest line ("Building C, 3rd floor", some 100 points), the notes get the rest.
    expect(x("Notes") - x("Address")).toBeLessThan(130);
    expect(words.filter((w) => w.text === "Preferred")).toHaveLength(1);
  });
});

describe("wide tables", () => {
  const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  // Amounts of 3 to 7 digits and their separators, different in every cell.
  const amount = (r: number, c: number, digits: number) => String((r * 7919 + c * 104_729) % 10 ** digits).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

  it("sets twelve columns of amounts in smaller text, each amount whole, on a portrait page; numbers on the right of a column given no alignment", async () => {
    const rows = ["Revenue", "Cost of sales", "Net income"].map((line, r) => [line, ...MONTHS.slice(0, 11).map((_, c) => amount(r + 1, c, 6))]);
    const markdown = "| Item | Qty | Note |\n|---|---|:--|\n| Apples | 1 | 2 |\n| Pears | 100 | 300 |";
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "table", columns: ["Line", ...MONTHS.slice(0, 11)], rows }, markdown])));
    const words = pdfWords(bytes);
    expect(new Set(words.map((w) => w.page))).toEqual(new Set([1]));
    expect(words[0]!.pageHeight).toBeCloseTo(841.89, 1);
    for (const cell of rows.flat().flatMap((text) => text.split(" "))) expect(words.map((w) => w.text)).toContain(cell);
    // A column of amounts: their right edges line up, their left edges don't (7 and 6 characters).
    const column = rows.map((row) => words.find((w) => w.text === row[1])!);
    expect(Math.max(...column.map((w) => w.xMax)) - Math.min(...column.map((w) => w.xMax))).toBeLessThan(0.5);
    // Markdown's `---` sets no alignment (Qty: numbers, on the right); `:--` sets the left.
    const [one, hundred, two, three] = ["1", "100", "2", "300"].map((text) => words.find((w) => w.text === text)!);
    expect(Math.abs(one!.xMax - hundred!.xMax)).toBeLessThan(0.5);
    expect(Math.abs(two!.xMin - three!.xMin)).toBeLessThan(0.5);
  });

  it("sets a portrait document's table too wide for its pages even in small text on landscape pages, with its heading, and goes on in portrait after it", async () => {
    const rows = Array.from({ length: 60 }, (_, r) => MONTHS.map((_, c) => `${amount(r + 1, c, 8)}.${String((r + c) % 100).padStart(2, "0")}`));
    const table = { type: "table", columns: MONTHS, rows };
    const args = (contents: boolean) => ({
      title: "Ledger",
      orientation: "portrait",
      page_numbers: false,
      table_of_contents: contents,
      sections: [
        { heading: "Introduction", content: ["Before the ledger."] },
        { heading: "All months", content: [table, "After the ledger."] },
      ],
    });
    for (const contents of [false, true]) {
      const words = pdfWords(pdf.bytes(await pdf.ok("create_pdf_document", args(contents))));
      const pageOf = (text: string) => words.find((w) => w.text === text)!;
      for (const cell of rows.flat()) expect(words.map((w) => w.text)).toContain(cell);
      // The last "months": the contents' entry comes first.
      const heading = words.filter((w) => w.text === "months").at(-1)!;
      const first = pageOf(rows[0]![0]!);
      // The heading is on the first landscape page, with the table's start; the table goes on over landscape pages.
      expect([heading.page, heading.pageHeight]).toEqual([first.page, first.pageHeight]);
      expect(first.pageHeight).toBeCloseTo(595.28, 1);
      expect(pageOf(rows.at(-1)![0]!).pageHeight).toBeCloseTo(595.28, 1);
      expect(pageOf(rows.at(-1)![0]!).page).toBeGreaterThan(first.page);
      // Text before and after it is on portrait pages, and no page is left blank (the contents' next page is turned).
      expect(pageOf("Before").pageHeight).toBeCloseTo(841.89, 1);
      expect(pageOf("After").pageHeight).toBeCloseTo(841.89, 1);
      expect(pageOf("After").page).toBe(pageOf(rows.at(-1)![0]!).page + 1);
      const pages = Math.max(...words.map((w) => w.page));
      expect(new Set(words.map((w) => w.page)).size).toBe(pages);
    }
    // Given no orientation, the document is landscape throughout, the title's page too.
    const words = pdfWords(pdf.bytes(await pdf.ok("create_pdf_document", { ...args(false), orientation: null })));
    expect(new Set(words.map((w) => w.pageHeight))).toEqual(new Set([595.28]));
    for (const cell of rows.flat()) expect(words.map((w) => w.text)).toContain(cell);
    expect(words.find((w) => w.text === "Before")!.page).toBe(1);
  });
});

describe("text in other scripts among Latin", () => {
  it("spaces a Latin paragraph as usual but for the line holding an Arabic word", async () => {
    const latin = "The quarterly review covers revenue, costs and the outlook for the coming year, with notes from each team. ".repeat(4);
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", doc([`Pure ${latin}`, `Mixed ${latin}The word سلام means peace. ${latin}`])));
    const words = pdfWords(bytes);
    // Each paragraph's line tops, from its first word to the next paragraph's.
    const tops = (from: string, to?: string) => {
      const start = words.findIndex((w) => w.text === from);
      const end = to ? words.findIndex((w) => w.text === to) : words.length;
      return [...new Set(words.slice(start, end).map((w) => Math.round(w.yMin)))].sort((a, b) => a - b);
    };
    const gaps = (ys: number[]) => ys.slice(1).map((y, i) => y - ys[i]!);
    const pure = gaps(tops("Pure", "Mixed"));
    const mixed = gaps(tops("Mixed"));
    expect(new Set(pure).size).toBeLessThanOrEqual(2); // rounding
    const pitch = pure[0]!;
    // The line with the Arabic word is taller, and the one before it ends as usual; every other line keeps the pitch.
    expect(mixed.filter((gap) => Math.abs(gap - pitch) > 1).length).toBeLessThanOrEqual(2);
    expect(mixed.length).toBeGreaterThanOrEqual(6);
  });

  it("sizes a code block's box to its lines when they are Arabic or Chinese, so nothing after it is drawn over them", async () => {
    const arabic = Array.from({ length: 6 }, (_, i) => `مرحبا بالعالم ${i}`).join("\n");
    const chinese = Array.from({ length: 6 }, (_, i) => `print('你好世界${i}')`).join("\n");
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", doc([{ type: "code", text: arabic }, "First after.", { type: "code", text: chinese }, "Second after."])));
    const words = pdfWords(bytes);
    const page = pageGrey(bytes);
    for (const [last, after] of [
      ["5", "First"],
      ["你好世界5", "Second"],
    ] as const) {
      const lastLine = words.filter((w) => w.text.includes(last) && w.yMax < words.find((a) => a.text === after)!.yMin + 20);
      const below = Math.max(...lastLine.map((w) => w.yMax));
      // The paragraph after the block starts below its last line, and the box's tint goes on under that line.
      expect(words.find((w) => w.text === after)!.yMin).toBeGreaterThan(below + 4);
      expect(page.pixels[Math.ceil(below + 2) * page.width + STYLE_MARGIN + 3]).toBeLessThan(250);
      expect(page.pixels[Math.ceil(below + 2) * page.width + STYLE_MARGIN + 3]).toBeGreaterThan(200);
    }
  });
});

describe("page furniture", () => {
  it("sets a header or footer too long for one line on two, whole, the header's rule still under it", async () => {
    const footer = "Confidential — prepared for the board of directors and the CFO only. Version 3.2 final draft. Do not distribute outside the finance team without approval.";
    const header = "Quarterly Report 2026 — Northern Region Sales, Marketing and Operations Review for the Executive Committee, second edition";
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", { title: "T", header, footer, sections: [{ heading: "A", content: ["word ".repeat(1500)] }] }));
    const second = pdfPageTexts(bytes)[1]!.replace(/\s+/g, " ");
    expect(second).toContain(header);
    expect(second).toContain(footer);
    const words = pdfWords(bytes).filter((w) => w.page === 2);
    const edition = words.find((w) => w.text === "edition")!;
    const body = words.find((w) => w.text === "word")!;
    // The header's second line still sits above the body's first line (and the rule between them).
    expect(edition.yMax).toBeLessThan(body.yMin - 4);
    expect(words.find((w) => w.text === "approval.")!.yMin).toBeGreaterThan(words.find((w) => w.text === "Confidential")!.yMin + 5);
  });

  it("cuts a contents entry too long for its line after a whole word", async () => {
    const heading = "A very long heading that will not fit on a single line of the table of contents because it goes on and on and on";
    const bytes = pdf.bytes(await pdf.ok("create_pdf_document", { title: "T", table_of_contents: true, sections: [{ heading, content: ["x"] }] }));
    const entry = pdfPageTexts(bytes)[0]!
      .split("\n")
      .find((line) => line.startsWith("A very long"))!;
    const cut = /^(.*?)…/.exec(entry)![1]!;
    expect(heading.startsWith(cut)).toBe(true);
    expect(heading[cut.length]).toBe(" ");
  });
});
