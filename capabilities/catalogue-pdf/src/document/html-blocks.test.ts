import { describe, expect, it } from "vitest";
import { htmlAsMarkdown } from "./html-blocks.js";
import { paragraphBlocks } from "./markdown-blocks.js";

describe("htmlAsMarkdown", () => {
  it("reads headings, paragraphs, links, nested lists, a table, a quote, preformatted code and a rule as markdown, the source's layout dropped", () => {
    const html = [
      "<h2>Report</h2>",
      '<p>See <a href="https://example.com/a b">the site</a> and <strong class="x">bold</strong>.</p>',
      "<ul>\n  <li>One\n    <ul><li>One a</li><li>One b</li></ul>\n  </li>\n  <li><p>Two</p></li>\n</ul>",
      "<ol><li>First</li><li>Second<ol><li>Inner</li></ol></li></ol>",
      "<table>\n <thead><tr><th>Name</th><th>Value</th></tr></thead>\n <tbody><tr><td>A|B</td><td>1</td></tr><tr><td>C</td></tr></tbody>\n</table>",
      "<blockquote><p>Quote line one.</p><p>Line two.</p></blockquote>",
      '<pre><code class="language-js">\nif (a &lt; b) {\n  run();\n}\n</code></pre>',
      "<hr>",
      "<div>Line one<br>Line two</div><div>Other</div>",
    ].join("\n");
    expect(htmlAsMarkdown(html)).toBe(
      [
        "## Report",
        "",
        "See [the site](https://example.com/a%20b) and <strong>bold</strong>.",
        "",
        "- One\n   - One a\n   - One b\n- Two",
        "",
        "1. First\n2. Second\n   1. Inner",
        "",
        "| Name | Value |\n| --- | --- |\n| A\\|B | 1 |\n| C |  |",
        "",
        "> Quote line one.\n>\n> Line two.",
        "",
        "```\nif (a < b) {\n  run();\n}\n```",
        "",
        "---",
        "",
        "Line one<br>Line two",
        "",
        "Other",
      ].join("\n"),
    );
  });

  it("leaves text alone without HTML blocks: tags in code, fenced code, markdown around a paragraph kept", () => {
    for (const text of ["Use the `<p>` tag.\nNext line", "```html\n<p>x</p>\n```", "a <b>bold</b> word", "x < y and y > z"]) expect(htmlAsMarkdown(text)).toBe(text);
    expect(htmlAsMarkdown("## Markdown\n\n<p>Para</p>\n\n- item1\n- item2")).toBe("## Markdown\n\nPara\n\n- item1\n- item2");
  });

  it("gives paragraphBlocks the blocks the HTML stands for", () => {
    expect(paragraphBlocks("<p>Intro</p><ul><li>a</li><li>b</li></ul><table><tr><th>K</th></tr><tr><td>v</td></tr></table>", "f")).toEqual([
      { type: "paragraph", text: "Intro" },
      { type: "list", ordered: false, items: ["a", "b"] },
      { type: "table", columns: [{ header: "K" }], rows: [["v"]] },
    ]);
  });

  it("reads hostile HTML of 200,000 characters in linear time", () => {
    const hostile = [
      "<p>".repeat(66_000),
      "<ul>".repeat(50_000) + "<li>x".repeat(10_000),
      "<blockquote>".repeat(16_000) + "q" + "</blockquote>".repeat(15_000),
      "<table><tr>" + "<td>x".repeat(40_000),
      "<table>".repeat(28_000),
      `<p>${"\n".repeat(199_000)}x`,
      `<a href="${"x".repeat(199_000)}">y</a>`,
      "<pre>" + "<b>".repeat(60_000),
      "<h1>".repeat(50_000),
    ];
    for (const text of hostile) {
      const started = performance.now();
      paragraphBlocks(text, "f");
      expect(performance.now() - started, text.slice(0, 20)).toBeLessThan(1_000);
    }
  });
});
