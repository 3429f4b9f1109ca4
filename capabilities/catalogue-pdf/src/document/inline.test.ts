import { describe, expect, it } from "vitest";
import { parseInline, plainText } from "./inline.js";

// A link's run also has its link's id (any number: ids count up across calls).
const run = (text: string, style: Partial<{ bold: boolean; italic: boolean; code: boolean; link: string; strike: true }> = {}) => ({
  text,
  bold: false,
  italic: false,
  code: false,
  ...style,
  ...(style.link ? { linkId: expect.any(Number) } : {}),
});

/** The text of a source's runs, styles left out. */
const text = (source: string) =>
  parseInline(source)
    .map((r) => r.text)
    .join("");

describe("parseInline", () => {
  it("raises a footnote's number where it is marked, [^1], and starts its note's line `[^1]: text` with the number raised", () => {
    expect(text("Revenue grew[^1] and costs fell.[^12]\n\n[^1]: Annual report.\n[^12]:  See p. 4")).toBe("Revenue grew¹ and costs fell.¹²\n\n¹ Annual report.\n¹² See p. 4");
    // Not a number, or in code: kept as written.
    expect(text("a[^note] `x[^1]`")).toBe("a[^note] x[^1]");
  });

  it("sets <sup> and <sub> of digits, signs, brackets and small letters in raised or lowered characters, and drops the tags of others", () => {
    expect(text("m<sup>2</sup> and 10<sup>-3</sup>, H<sub>2</sub>O, a<sup>(n+1)</sup>")).toBe("m² and 10⁻³, H₂O, a⁽ⁿ⁺¹⁾");
    expect(text("the 1<sup>st</sup>, XIX<sup>e</sup> siècle, v<sub>max</sub>, x<sub>i</sub>")).toBe("the 1ˢᵗ, XIXᵉ siècle, vₘₐₓ, xᵢ");
    // Capitals, and letters without a lowered form (b, q): the tags dropped, the text kept.
    expect(text("x<sup>TM</sup> y<sub>bq</sub>")).toBe("xTM ybq");
    expect(text("a <sup>2 alone")).toBe("a <sup>2 alone");
  });

  it("reads bold, italic, code and links", () => {
    expect(parseInline("a **b** *c* `d` [e](https://x.org/p?q=1)")).toEqual([
      run("a "),
      run("b", { bold: true }),
      run(" "),
      run("c", { italic: true }),
      run(" "),
      run("d", { code: true }),
      run(" "),
      run("e", { link: "https://x.org/p?q=1" }),
    ]);
  });

  it("keeps parentheses in pairs inside a link's target, and ends it at the first one unpaired", () => {
    expect(parseInline("See [Wiki](https://en.wikipedia.org/wiki/Rust_(programming_language)) for details.")).toEqual([
      run("See "),
      run("Wiki", { link: "https://en.wikipedia.org/wiki/Rust_(programming_language)" }),
      run(" for details."),
    ]);
    expect(parseInline("([x](https://x.org/a))")).toEqual([run("("), run("x", { link: "https://x.org/a" }), run(")")]);
  });

  it("keeps markers that close nothing as text: none closes after a space", () => {
    const unclosed = "**bold never closed and *italic never closed and `code";
    expect(parseInline(unclosed)).toEqual([run(unclosed)]);
    expect(parseInline("**a *b* c**")).toEqual([run("a ", { bold: true }), run("b", { bold: true, italic: true }), run(" c", { bold: true })]);
  });

  it("gives text without markup as one run, and no text as no runs", () => {
    expect(parseInline("Plain text: (brackets) and ] alone, 3 < 4, snake_case_name")).toEqual([run("Plain text: (brackets) and ] alone, 3 < 4, snake_case_name")]);
    expect(parseInline("")).toEqual([]);
  });

  it("reads __bold__ and _italic_ at the edges of words, and <https://…> as a link to itself", () => {
    expect(parseInline("a __b__ _c d_ <https://x.org/p> e")).toEqual([
      run("a "),
      run("b", { bold: true }),
      run(" "),
      run("c d", { italic: true }),
      run(" "),
      run("https://x.org/p", { link: "https://x.org/p" }),
      run(" e"),
    ]);
  });

  it("keeps underscores inside words and names, a lone underscore and other angle brackets as text", () => {
    for (const text of ["file_name_here and a__b__c", "a _ b _ c", "x<y> and <blink>tag</blink> and <b x> and <ftp://host>", "my_var_ and _start"]) expect(parseInline(text)).toEqual([run(text)]);
    expect(parseInline("\\_not\\_ and \\<https://x.org>")).toEqual([run("_not_ and <https://x.org>")]);
  });

  it("opens underscore emphasis only where a closing run follows, and lets each marker close only its own", () => {
    expect(parseInline("Use _id or user_id here")).toEqual([run("Use _id or user_id here")]);
    expect(parseInline("*see my_var_ now*")).toEqual([run("see my_var_ now", { italic: true })]);
    expect(parseInline("_a *b_ c*")).toEqual([run("a *b", { italic: true }), run(" c*")]);
    expect(parseInline("_".repeat(50_000) + "x")).toEqual([run("_".repeat(50_000) + "x")]);
    // Openers without closers, many of them: each closer search goes on from where the last one stopped.
    for (const text of ["_a ".repeat(60_000), "__a ".repeat(45_000), "a_ _b ".repeat(30_000)]) {
      const started = performance.now();
      parseInline(text);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it("nests italic inside bold", () => {
    expect(parseInline("**bold *both***")).toEqual([run("bold ", { bold: true }), run("both", { bold: true, italic: true })]);
  });

  it("keeps a lone or spaced asterisk as text (2 * 3 * 4)", () => {
    expect(parseInline("2 * 3 * 4 and a * star")).toEqual([run("2 * 3 * 4 and a * star")]);
    expect(parseInline("**unclosed")).toEqual([run("**unclosed")]);
  });

  it("keeps markup inside code as text", () => {
    expect(parseInline("`**not bold**`")).toEqual([run("**not bold**", { code: true })]);
  });

  it("unescapes backslashed markers", () => {
    expect(parseInline("\\*literal\\* and \\`tick\\`")).toEqual([run("*literal* and `tick`")]);
  });

  it("accepts only https, http and mailto links, leaving others as text", () => {
    expect(parseInline("[x](javascript:alert(1))")).toEqual([run("[x](javascript:alert(1))")]);
    expect(parseInline("[mail](mailto:a@b.org)")[0]).toEqual(run("mail", { link: "mailto:a@b.org" }));
  });

  it("keeps brackets that open no link as text, however many, and still finds the links among them", () => {
    const brackets = "[".repeat(20_000);
    expect(parseInline(brackets)).toEqual([run(brackets)]);
    const runs = parseInline(`${"[".repeat(600)}\n[x](https://e.org) [${"y".repeat(600)}](https://e.org)`);
    expect(runs.filter((r) => r.link)).toEqual([run("x", { link: "https://e.org" })]); // link text over 500 characters stays text
    expect(runs.map((r) => r.text).join("")).toBe(`${"[".repeat(600)}\nx [${"y".repeat(600)}](https://e.org)`);
  });

  it("reads ~~struck~~ text, also inside bold, and keeps a lone or spaced ~~ as text", () => {
    expect(parseInline("~~old~~ new **~~b~~**")).toEqual([run("old", { strike: true }), run(" new "), run("b", { bold: true, strike: true })]);
    expect(parseInline("~~ not ~~ and ~~open")).toEqual([run("~~ not ~~ and ~~open")]);
    expect(parseInline("~~".repeat(50_000))).toEqual([run("~~".repeat(50_000))]);
  });

  it("unescapes backslashed markup characters and keeps other backslashes (paths, patterns)", () => {
    expect(parseInline("\\# \\> \\- \\~ \\! \\| \\& C:\\path \\é")).toEqual([run("# > - ~ ! | & C:\\path \\é")]);
    for (const text of ["..\\..\\bin\\tool.exe", "C:\\Users\\me\\.ssh", "^\\d+\\.\\d+$"]) expect(parseInline(text)).toEqual([run(text)]);
    // A numbered item's escape and a dollar escaped against math lose their backslash.
    expect(parseInline("1\\. Not a list, \\$5")).toEqual([run("1. Not a list, $5")]);
  });

  it("reads <br> as a line break and entity references as their characters, keeping the rest as written", () => {
    expect(parseInline("a<br>b<BR/>c<br />d")).toEqual([run("a\nb\nc\nd")]);
    expect(parseInline("AT&amp;T &lt;b&gt; &quot;q&quot; &apos;s&apos; a&nbsp;b &#169; &#x20AC;")).toEqual([run(`AT&T <b> "q" 's' a\u00A0b © €`)]);
    expect(parseInline("R&D, &copy &#0; &#x1F; &#xD800; &#1114112; &amp &unknown;")).toEqual([run("R&D, &copy &#0; &#x1F; &#xD800; &#1114112; &amp &unknown;")]);
    expect(parseInline("&copy; &mdash; &hellip; &euro; &rArr;")).toEqual([run("© — … € ⇒")]);
    expect(parseInline("`&amp; <br>`")).toEqual([run("&amp; <br>", { code: true })]);
    expect(parseInline("[a&amp;b](https://e.org/?a=1&amp;b=2)")).toEqual([run("a&b", { link: "https://e.org/?a=1&b=2" })]);
    // In a target only &amp; is read: no reference puts a space or control into a URL.
    expect(parseInline("[a](https://e.org/&#x20;x)")).toEqual([run("a", { link: "https://e.org/&#x20;x" })]);
  });

  it("reads the HTML tags of inline style where the closing tag follows, dropping those without a style", () => {
    expect(parseInline("<b>a</b> <strong>b</strong> <i>c</i> <EM>d</EM> <s>e</s> <del>f</del> <code>x &lt; 1</code> H<sub>2</sub>O <u>g</u>")).toEqual([
      run("a", { bold: true }),
      run(" "),
      run("b", { bold: true }),
      run(" "),
      run("c", { italic: true }),
      run(" "),
      run("d", { italic: true }),
      run(" "),
      run("e", { strike: true }),
      run(" "),
      run("f", { strike: true }),
      run(" "),
      run("x < 1", { code: true }),
      run(" H₂O g"),
    ]);
    for (const text of ["<b>unclosed", "</b> stray", "<u>open", "a <b and c> d"]) expect(parseInline(text)).toEqual([run(text)]);
    // A closing tag in code further on closes nothing: `<b>` written about in prose stays text.
    expect(parseInline("Type <b> to start, e.g. `<b>hi</b>` here")).toEqual([run("Type <b> to start, e.g. "), run("<b>hi</b>", { code: true }), run(" here")]);
    expect(parseInline("<code></code>")).toEqual([run("<code></code>")]);
    // Many opening tags without closing ones: each closing-tag search goes on from where the last one stopped.
    for (const text of ["<b>".repeat(60_000), "<code>".repeat(40_000), "<u>x</u>".repeat(30_000)]) {
      const started = performance.now();
      parseInline(text);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });

  it("reads a markdown image in text as a link to it, its alt text the link's", () => {
    expect(parseInline("see ![chart](https://e.org/c.png) here and \\![x](https://e.org)")).toEqual([
      run("see "),
      run("chart", { link: "https://e.org/c.png" }),
      run(" here and !"),
      run("x", { link: "https://e.org" }),
    ]);
  });

  it("gives each link an id of its own, two links to one target too", () => {
    const [a, , b] = parseInline("[a](https://x.org) [b](https://x.org)");
    expect(a!.linkId).not.toBe(b!.linkId);
  });

  it("gives the plain text for measuring", () => {
    expect(plainText("**a** [b](https://c.d) `e`")).toBe("a b e");
  });
});
