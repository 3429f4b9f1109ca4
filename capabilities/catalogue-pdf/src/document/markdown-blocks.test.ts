import { describe, expect, it } from "vitest";
import { nestWrittenItems, paragraphBlocks } from "./markdown-blocks.js";

describe("paragraphBlocks", () => {
  it("splits text at blank lines into paragraphs and keeps single line breaks", () => {
    expect(paragraphBlocks("One\nstill one\n\n  \nTwo", "f")).toEqual([
      { type: "paragraph", text: "One\nstill one" },
      { type: "paragraph", text: "Two" },
    ]);
  });

  it("reads a markdown table with the text around it, its alignments (none for `---`, or past the delimiter row), escaped pipes and ragged rows, a row's extra cells in columns of their own", () => {
    const text = "Figures:\n| Region | Revenue | Note |\n|:--|--:|:-:|\n| Zürich | 1 | a \\| b |\n| Genève | 2 |\n| Bern | 3 | c | extra | |\nSource: finance";
    expect(paragraphBlocks(text, "f")).toEqual([
      { type: "paragraph", text: "Figures:" },
      {
        type: "table",
        columns: [{ header: "Region", align: "left" }, { header: "Revenue", align: "right" }, { header: "Note", align: "center" }, { header: "" }],
        rows: [
          ["Zürich", "1", "a | b", ""],
          ["Genève", "2", "", ""],
          ["Bern", "3", "c", "extra"],
        ],
      },
      { type: "paragraph", text: "Source: finance" },
    ]);
  });

  it("reads tab-separated lines pasted from a spreadsheet as a table, the first line its header", () => {
    expect(paragraphBlocks("People:\nName\tAge\tCity\nJohn\t30\tBerlin\nAnn\t\tRome\nThat is all.", "f")).toEqual([
      { type: "paragraph", text: "People:" },
      {
        type: "table",
        columns: [{ header: "Name" }, { header: "Age" }, { header: "City" }],
        rows: [
          ["John", "30", "Berlin"],
          ["Ann", "", "Rome"],
        ],
      },
      { type: "paragraph", text: "That is all." },
    ]);
    // One line with a tab is text.
    expect(paragraphBlocks("Total:\t42\nthanks", "f")).toEqual([{ type: "paragraph", text: "Total:\t42\nthanks" }]);
  });

  it("reads lines that are all bullets or all numbers as a list", () => {
    expect(paragraphBlocks("- one\n* two", "f")).toEqual([{ type: "list", ordered: false, items: ["one", "two"] }]);
    expect(paragraphBlocks("1. one\n2) two", "f")).toEqual([{ type: "list", ordered: true, items: ["one", "two"] }]);
  });

  it("leaves a single numbered line, an item past the item bound and pipes without a delimiter row as a paragraph", () => {
    for (const text of ["31. März ist der Stichtag.", "a | b\nc | d", `- ${"x ".repeat(10_001)}\n- two`]) {
      expect(paragraphBlocks(text, "f")).toEqual([{ type: "paragraph", text }]);
    }
  });

  it("reads a list among lines of text: lead-in, the list, then a closing line as a paragraph", () => {
    expect(paragraphBlocks("Intro line\n- bullet a\n- bullet b\nSome closing sentence.", "f")).toEqual([
      { type: "paragraph", text: "Intro line" },
      { type: "list", ordered: false, items: ["bullet a", "bullet b"] },
      { type: "paragraph", text: "Some closing sentence." },
    ]);
    expect(paragraphBlocks("- one\nnot an item", "f")).toEqual([
      { type: "list", ordered: false, items: ["one"] },
      { type: "paragraph", text: "not an item" },
    ]);
  });

  it("reads one bullet line as a list of one", () => {
    expect(paragraphBlocks("- only", "f")).toEqual([{ type: "list", ordered: false, items: ["only"] }]);
  });

  it("starts a new list where bullets turn to numbers, and reads a table after a list", () => {
    expect(paragraphBlocks("- a\n- b\n1. c\n2. d", "f")).toEqual([
      { type: "list", ordered: false, items: ["a", "b"] },
      { type: "list", ordered: true, items: ["c", "d"] },
    ]);
    expect(paragraphBlocks("- a\n- b\n| X | Y |\n|---|---|\n| 1 | 2 |", "f")).toEqual([
      { type: "list", ordered: false, items: ["a", "b"] },
      {
        type: "table",
        columns: [{ header: "X" }, { header: "Y" }],
        rows: [["1", "2"]],
      },
    ]);
  });

  it("keeps numbers that don't count on by one in the items, to be drawn as written, and reads clauses set in under an item as its items", () => {
    expect(paragraphBlocks("Clauses:\n4. Payment\n7. Liability\n12. Termination", "f")).toEqual([
      { type: "paragraph", text: "Clauses:" },
      { type: "list", ordered: true, start: 4, items: ["4. Payment", "7. Liability", "12. Termination"] },
    ]);
    expect(paragraphBlocks("31. März ist der Stichtag.\n1. April beginnt Q2.", "f")).toEqual([
      { type: "list", ordered: true, start: 31, items: ["31. März ist der Stichtag.", "1. April beginnt Q2."] },
    ]);
    // Counting on, or all alike (markdown's way of numbering by itself): the list numbers them.
    expect(paragraphBlocks("1. a\n1. b\n1. c", "f")).toEqual([{ type: "list", ordered: true, items: ["a", "b", "c"] }]);
    expect(paragraphBlocks("1. Definitions\n   1.1 Agreement means this.\n   1.2 Services means them.\n      1.2.1 with support;\n2. Term", "f")).toEqual([
      {
        type: "list",
        ordered: true,
        items: [{ text: "Definitions", items: ["1.1 Agreement means this.", { text: "1.2 Services means them.", items: ["1.2.1 with support;"] }] }, "Term"],
      },
    ]);
  });

  it("reads the page breaks of LaTeX, HTML and comments as page breaks, and a long line of underscores as a line to sign on", () => {
    for (const mark of ["\\newpage", "\\pagebreak", '<div style="page-break-after: always"></div>', '<p style="break-before: page">', "<!-- pagebreak -->"]) {
      expect(paragraphBlocks(`One\n${mark}\nTwo`, "f"), mark).toEqual([{ type: "paragraph", text: "One" }, { type: "page_break" }, { type: "paragraph", text: "Two" }]);
    }
    expect(paragraphBlocks("Signed:\n______________________________\nJane Doe", "f")).toEqual([{ type: "paragraph", text: "Signed:\n______________________________\nJane Doe" }]);
    expect(paragraphBlocks("a\n___\nb", "f")).toEqual([{ type: "paragraph", text: "a" }, { type: "rule" }, { type: "paragraph", text: "b" }]);
  });

  it("reads items with blank lines between them as one list, and joins a line set in under an item to it", () => {
    expect(paragraphBlocks("- First point\n\n- Second point", "f")).toEqual([{ type: "list", ordered: false, items: ["First point", "Second point"] }]);
    expect(paragraphBlocks("1. **Install** it\n\n2. **Configure** it", "f")).toEqual([{ type: "list", ordered: true, items: ["**Install** it", "**Configure** it"] }]);
    expect(paragraphBlocks("- item one\n  continued here\n- two\n\n  more about two\n\nAfter.", "f")).toEqual([
      { type: "list", ordered: false, items: ["item one continued here", "two more about two"] },
      { type: "paragraph", text: "After." },
    ]);
  });

  it("keeps one numbered line as text beside bullets or numbered lines inside code", () => {
    expect(paragraphBlocks("31. März ist der Stichtag.\n- Unterlagen\n- Formular", "f")).toEqual([
      { type: "paragraph", text: "31. März ist der Stichtag." },
      { type: "list", ordered: false, items: ["Unterlagen", "Formular"] },
    ]);
    expect(paragraphBlocks("31. März ist der Stichtag.\n\n```\n1. x\n2. y\n```", "f")[0]).toEqual({ type: "paragraph", text: "31. März ist der Stichtag." });
    // Among lines of text it stays one of them: the paragraph is not cut around it.
    for (const text of ["Der Termin ist wichtig:\n31. März ist der Stichtag.\nBitte beachten.", "Am\n24. Dezember ist Heiligabend."]) {
      expect(paragraphBlocks(text, "f")).toEqual([{ type: "paragraph", text }]);
    }
  });

  it("reads a table or fenced code set in under an item as a table or code after the list", () => {
    expect(paragraphBlocks("- a\n  | x | y |\n  |---|---|\n  | 1 | 2 |", "f")).toEqual([
      { type: "list", ordered: false, items: ["a"] },
      {
        type: "table",
        columns: [{ header: "x" }, { header: "y" }],
        rows: [["1", "2"]],
      },
    ]);
    expect(paragraphBlocks("- Install:\n    ```bash\n    npm i\n    ```\n- Run", "f")).toEqual([
      { type: "list", ordered: false, items: ["Install:"] },
      { type: "code", text: "npm i", language: "bash" },
      { type: "list", ordered: false, items: ["Run"] },
    ]);
  });

  it("numbers a list from its first number, so steps go on after a code block", () => {
    const text = "1. Clone the repository\n2. Install dependencies:\n\n```bash\nnpm install\n```\n\n3. Copy the example config\n4. Start the server";
    expect(paragraphBlocks(text, "f")).toEqual([
      { type: "list", ordered: true, items: ["Clone the repository", "Install dependencies:"] },
      { type: "code", text: "npm install", language: "bash" },
      { type: "list", ordered: true, start: 3, items: ["Copy the example config", "Start the server"] },
    ]);
    // One numbered line alone is a list where the text has others.
    expect(paragraphBlocks("1. Clone\n\n```\ngit clone x\n```\n\n2. Run", "f").at(-1)).toEqual({ type: "list", ordered: true, start: 2, items: ["Run"] });
  });

  it("reads a list after lines of lead-in text as that text and the list", () => {
    expect(paragraphBlocks("Shopping:\n- eggs\n- milk", "f")).toEqual([
      { type: "paragraph", text: "Shopping:" },
      { type: "list", ordered: false, items: ["eggs", "milk"] },
    ]);
  });

  it("nests indented items under the item before them, down to the deepest level lists have", () => {
    const text = "1. one\n   - one a\n   - one b\n     - one b i\n       - deeper\n         - deepest\n2. two\n\t- two a";
    expect(paragraphBlocks(text, "f")).toEqual([
      {
        type: "list",
        ordered: true,
        items: [
          { text: "one", items: ["one a", { text: "one b", items: [{ text: "one b i", items: ["deeper", "deepest"] }] }] },
          { text: "two", items: ["two a"] },
        ],
      },
    ]);
  });

  it("reads a markdown heading line as a bold paragraph of its own, before or among other text", () => {
    expect(paragraphBlocks("## Background", "f")).toEqual([{ type: "paragraph", text: "**Background**", heading: true }]);
    expect(paragraphBlocks("# Plan #\nFirst we look.\n### Next\n- a\n- b", "f")).toEqual([
      { type: "paragraph", text: "**Plan**", heading: true },
      { type: "paragraph", text: "First we look." },
      { type: "paragraph", text: "**Next**", heading: true },
      { type: "list", ordered: false, items: ["a", "b"] },
    ]);
    expect(paragraphBlocks("#hashtag and C# stay text\nsecond line", "f")).toEqual([{ type: "paragraph", text: "#hashtag and C# stay text\nsecond line" }]);
  });

  it("reads fenced code as a code block with its language, blank lines inside kept", () => {
    expect(paragraphBlocks("Run this:\n```python\nx = 1\n\nprint(x)\n```\nDone.", "f")).toEqual([
      { type: "paragraph", text: "Run this:" },
      { type: "code", text: "x = 1\n\nprint(x)", language: "python" },
      { type: "paragraph", text: "Done." },
    ]);
    expect(paragraphBlocks("~~~\nplain\n~~~", "f")).toEqual([{ type: "code", text: "plain" }]);
    expect(paragraphBlocks("- a\n- b\n\n```\nc\n```", "f")).toEqual([
      { type: "list", ordered: false, items: ["a", "b"] },
      { type: "code", text: "c" },
    ]);
  });

  it("reads > lines as a quote, a last line `— Name` as its attribution, among other text", () => {
    expect(paragraphBlocks("He said:\n> Simple is better.\n> Always.\n— Tim\nAfter.", "f")).toEqual([
      { type: "paragraph", text: "He said:" },
      { type: "quote", text: "Simple is better.\nAlways.", attribution: "Tim" },
      { type: "paragraph", text: "After." },
    ]);
    expect(paragraphBlocks("> Invent it.\n> — Alan Kay", "f")).toEqual([{ type: "quote", text: "Invent it.", attribution: "Alan Kay" }]);
    expect(paragraphBlocks("> one line", "f")).toEqual([{ type: "quote", text: "one line" }]);
    expect(paragraphBlocks(`> a\n> — ${"n".repeat(201)}`, "f")).toEqual([{ type: "quote", text: `a\n— ${"n".repeat(201)}` }]);
    expect(paragraphBlocks("> Invent it.\n> — *Alan Kay*", "f")).toEqual([{ type: "quote", text: "Invent it.", attribution: "*Alan Kay*" }]);
    expect(paragraphBlocks(">> nested\n> outer", "f")).toEqual([{ type: "quote", text: "nested\nouter" }]);
    // A rule after a quote is a rule, not its attribution.
    expect(paragraphBlocks("> Quote\n---\nMore", "f")).toEqual([{ type: "quote", text: "Quote" }, { type: "rule" }, { type: "paragraph", text: "More" }]);
  });

  it("keeps > without a space after it, and markers quoting nothing, as text", () => {
    for (const text of [">50% of users", ">= 18", "Results:\n>90% passed", ">", ">\n>"]) expect(paragraphBlocks(text, "f")).toEqual([{ type: "paragraph", text }]);
  });

  it("reads ---, *** and ___ alone as a rule, and one line underlined with === or --- as a heading", () => {
    expect(paragraphBlocks("Above\n\n---\n\nBelow", "f")).toEqual([{ type: "paragraph", text: "Above" }, { type: "rule" }, { type: "paragraph", text: "Below" }]);
    expect(paragraphBlocks("* * *", "f")).toEqual([{ type: "rule" }]);
    expect(paragraphBlocks("- a\n- b\n___\nc", "f")).toEqual([{ type: "list", ordered: false, items: ["a", "b"] }, { type: "rule" }, { type: "paragraph", text: "c" }]);
    expect(paragraphBlocks("Title\n=====\nBody\nSub title\n---", "f")).toEqual([
      { type: "paragraph", text: "**Title**", heading: true },
      { type: "paragraph", text: "Body\nSub title" },
      { type: "rule" },
    ]);
    // Not rules or headings: two dashes, dashes in text, an email signature's separator.
    expect(paragraphBlocks("a\n\n--\n\n1 --- 2", "f")).toEqual([
      { type: "paragraph", text: "a" },
      { type: "paragraph", text: "--" },
      { type: "paragraph", text: "1 --- 2" },
    ]);
    expect(paragraphBlocks("Thanks,\nBob\n-- \nBob Smith", "f")).toEqual([{ type: "paragraph", text: "Thanks,\nBob\n-- \nBob Smith" }]);
  });

  it("reads hostile text of 200,000 characters in linear time (no pattern rescans a line or the text)", () => {
    const hostile = [
      "# a" + " ".repeat(199_000) + "b",
      "---\n".repeat(50_000),
      "a\n---\n".repeat(33_000),
      "> a\n".repeat(50_000),
      `${"x\n".repeat(99_000)}===`,
      "```a\n".repeat(40_000),
      "x\n```" + " ".repeat(199_000),
      `## ${"# ".repeat(99_000)}x`,
      "- a\n" + "  ".repeat(99_000) + "- b",
      // Thousands of parts set in under one item, each joined to the list (once rescanned every time).
      `- a\n\n${"  b\n\n".repeat(33_000)}`,
      `- a\n\n${"\tb\n\n".repeat(50_000)}`,
      "- a\n1. b\n".repeat(20_000),
    ];
    for (const text of hostile) {
      const started = performance.now();
      paragraphBlocks(text, "f");
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(1_000);
    }
  });

  it("refuses a markdown table wider than the column limit, naming the field", () => {
    const row = (cell: string) => `|${Array.from({ length: 21 }, () => cell).join("|")}|`;
    expect(() => paragraphBlocks(`${row("h")}\n${row("--")}`, "sections[0].content[2]")).toThrow(
      "sections[0].content[2]: the markdown table has 21 columns, at most 20 fit; split it into several tables",
    );
    expect(() => paragraphBlocks(`| a | b |\n|--|--|\n${row("x")}`, "f")).toThrow("f: the markdown table has 21 columns (19 more in its rows than in its header), at most 20 fit");
  });
});

describe("nestWrittenItems", () => {
  it("makes an item's own list lines its nested items, nested by their indents, before the items it has", () => {
    expect(
      nestWrittenItems(["Phase 1\n  - design\n    - sketches\n  - review", { text: "Phase 2\n1. build\n2. test", items: ["ship"] }, "Address\nBahnhofstrasse 1\n8001 Zürich", "Total:\n\n- 5 apples"]),
    ).toEqual([
      { text: "Phase 1", items: [{ text: "design", items: ["sketches"] }, "review"] },
      { text: "Phase 2", items: ["build", "test", "ship"] },
      "Address\nBahnhofstrasse 1\n8001 Zürich",
      { text: "Total:", items: ["5 apples"] },
    ]);
  });

  it("makes an item of list lines throughout the items they are, its own nested items under the last; keeps one item line with more text", () => {
    expect(nestWrittenItems(["- a\n- b\n  - b1", { text: "\n1. x\n2. y", items: ["y1"] }, "- one item\nwith more text"])).toEqual([
      "a",
      { text: "b", items: ["b1"] },
      "x",
      { text: "y", items: ["y1"] },
      "- one item\nwith more text",
    ]);
  });
});
