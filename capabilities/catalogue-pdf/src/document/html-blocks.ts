// HTML that models write for a document's text, read as the markdown it stands for: paragraphs (<p>,
// <div>), headings (<h1>–<h6>), lists (<ul>, <ol>, <li>, nested), tables (<table>, <tr>, <th>, <td>),
// quotes (<blockquote>), preformatted code (<pre>), rules (<hr>) and links (<a href>). The markdown reader
// (markdown-blocks.ts) and the inline one (inline.ts) then set it as meant, where its tags were printed.

import { PDF_LIMITS as L } from "../limits.js";

/** A tag of the kinds read here, outside code spans: a text without one is left as it is. */
const BLOCK_TAG = /<\/?(?:p|div|ul|ol|li|h[1-6]|blockquote|pre|hr|table|tr|th|td|a)\b[^<>]*>/i;
/** A code span (copied as it is) or a tag: `/`, name, attributes (quoted values may hold `>`). */
const TOKEN = /(`+)[^`]*\1|<(\/?)([a-zA-Z][a-zA-Z0-9]*)\b((?:[^<>"']|"[^"]*"|'[^']*')*)>/g;
/** Tags that end a block: whitespace around them is the source's layout, not text. */
const BLOCKS = new Set(["p", "div", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr", "table", "thead", "tbody", "tfoot", "tr", "th", "td"]);
/** Inline tags the inline reader knows, kept without their attributes (it reads them bare). */
const INLINE = new Set(["b", "strong", "i", "em", "s", "del", "strike", "code", "u", "sup", "sub", "mark", "small", "span", "br"]);
/** A style that breaks the page before or after its element. */
const PAGE_BREAK_STYLE = /(?:page-break-(?:after|before)|break-(?:after|before))\s*:\s*(?:always|page)/i;
/** How deep lists nest in markdown here (PDF_LIMITS.maxListDepth; deeper items go on at that level). */
const MAX_DEPTH = L.maxListDepth;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'", nbsp: "\u00A0", "#39": "'" };

/** `text` with its HTML blocks written as markdown; unchanged when it has none (or fenced code, read as written). */
export function htmlAsMarkdown(text: string): string {
  if (!text.includes("<") || text.includes("```") || text.includes("~~~")) return text;
  if (!BLOCK_TAG.test(text.replace(/(`+)[^`]*\1/g, ""))) return text;
  return new HtmlReader().read(text);
}

class HtmlReader {
  /** The markdown so far, in pieces: trimming its end and appending cost the pieces touched, not the whole. */
  #out: string[] = [];
  /** A table's cell being read: its text goes there instead of `#out`. */
  #cell: string | undefined;
  #rows: string[][] = [];
  #row: string[] | undefined;
  #tables = 0;
  #lists: { ordered: boolean; count: number }[] = [];
  #quotes: number[] = [];
  #links: (string | undefined)[] = [];
  #pre = false;
  /** At the start of a <pre>: its first line feed is the source's layout, as in HTML. */
  #preStart = false;
  /** After a block tag: the whitespace that follows is the source's layout. */
  #trimNext = false;

  read(text: string): string {
    let at = 0;
    for (const m of text.matchAll(TOKEN)) {
      this.#text(text.slice(at, m.index));
      at = m.index + m[0].length;
      if (m[1] !== undefined) this.#emit(m[0]);
      else this.#tag(m[0], m[2] === "/", m[3]!.toLowerCase(), m[4]!);
    }
    this.#text(text.slice(at));
    return this.#out.join("").trim();
  }

  #emit(s: string): void {
    if (this.#cell !== undefined) this.#cell += s;
    else this.#out.push(s);
  }

  /** Drops the whitespace at the end of the markdown so far, saying how many line feeds it held. */
  #trimEnd(): number {
    let newlines = 0;
    while (this.#out.length > 0) {
      const last = this.#out.at(-1)!;
      const kept = last.trimEnd();
      for (let i = kept.length; i < last.length; i++) if (last.charCodeAt(i) === 0x0a) newlines++;
      if (kept) {
        this.#out[this.#out.length - 1] = kept;
        break;
      }
      this.#out.pop();
    }
    return newlines;
  }

  #text(s: string): void {
    if (!s) return;
    if (this.#pre) {
      if (this.#preStart) s = s.replace(/^\r?\n/, "");
      this.#preStart = false;
      return this.#emit(s.replace(/&(lt|gt|amp|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name]!));
    }
    // Between a table's cells: the source's layout.
    if (this.#tables > 0 && this.#cell === undefined) return;
    if (this.#trimNext) s = s.trimStart();
    if (!s) return;
    this.#trimNext = false;
    // A cell is one line of a markdown table; a list item one line of its list.
    if (this.#cell !== undefined || this.#lists.length > 0) s = s.replace(/\s+/g, " ");
    this.#emit(s);
  }

  /** Ends what came before with at least `newlines` line feeds (none at the start). */
  #break(newlines: 1 | 2): void {
    if (this.#cell !== undefined) return;
    const had = this.#trimEnd();
    if (this.#out.length > 0) this.#out.push("\n".repeat(Math.max(had, newlines)));
  }

  #tag(raw: string, closing: boolean, name: string, attributes: string): void {
    if (this.#pre && !(name === "pre" && closing)) {
      if (name !== "code") this.#emit(raw);
      return;
    }
    if (!closing && PAGE_BREAK_STYLE.test(attributes) && this.#tables === 0) {
      // An element that breaks the page (`<div style="page-break-after: always">`): a page break.
      this.#break(2);
      this.#out.push("\\newpage");
      this.#break(2);
      this.#trimNext = true;
    } else if (BLOCKS.has(name)) {
      this.#block(closing, name);
      this.#trimNext = true;
    } else if (name === "a") {
      if (closing) {
        const href = this.#links.pop();
        if (href) this.#emit(`](${href})`);
      } else {
        const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attributes);
        const url = href && (href[1] ?? href[2] ?? href[3])!.trim();
        const taken = url && /^(?:https?:|mailto:)/i.test(url) ? url.replaceAll(")", "%29").replaceAll(" ", "%20") : undefined;
        this.#links.push(taken);
        if (taken) this.#emit("[");
      }
    } else if (INLINE.has(name)) this.#emit(name === "br" ? "<br>" : `<${closing ? "/" : ""}${name}>`);
    // Other tags (<font>, <section>, …) are markup only: left out, their text kept.
  }

  #block(closing: boolean, name: string): void {
    const heading = /^h([1-6])$/.exec(name);
    if (this.#tables > 0) return this.#tableTag(closing, name);
    if (heading) {
      this.#break(2);
      if (!closing) this.#out.push(`${"#".repeat(Number(heading[1]))} `);
      return;
    }
    switch (name) {
      case "p":
      case "div":
        // Inside a list item a paragraph is the item's text.
        if (this.#lists.length === 0) this.#break(2);
        else if (!/\s$/.test(this.#out.at(-1) ?? " ")) this.#emit(" ");
        return;
      case "ul":
      case "ol":
        if (closing) {
          this.#lists.pop();
          this.#break(this.#lists.length > 0 ? 1 : 2);
        } else {
          this.#break(this.#lists.length > 0 ? 1 : 2);
          this.#lists.push({ ordered: name === "ol", count: 0 });
        }
        return;
      case "li": {
        const list = this.#lists.at(-1);
        if (closing || !list) return;
        this.#break(1);
        // Set in by its depth, up to the deepest level lists have (deeper ones go on at that level).
        this.#out.push(`${"   ".repeat(Math.min(this.#lists.length, MAX_DEPTH) - 1)}${list.ordered ? `${++list.count}.` : "-"} `);
        return;
      }
      case "blockquote":
        this.#break(2);
        // A quote in a quote goes on in the outer one (one level of `>`).
        if (!closing) {
          this.#quotes.push(this.#quotes.length === 0 ? this.#out.length : -1);
          return;
        }
        if ((this.#quotes.at(-1) ?? -1) < 0) {
          this.#quotes.pop();
          return;
        }
        this.#trimEnd();
        this.#out.push(quoted(this.#out.splice(Math.min(this.#quotes.pop()!, this.#out.length)).join("")));
        this.#break(2);
        return;
      case "pre":
        if (closing) {
          this.#trimEnd();
          this.#out.push("\n```");
          this.#pre = false;
          this.#break(2);
        } else {
          this.#break(2);
          this.#out.push("```\n");
          this.#pre = true;
          this.#preStart = true;
        }
        return;
      case "hr":
        this.#break(2);
        this.#out.push("---");
        this.#break(2);
        return;
      case "table":
        if (!closing) {
          this.#tables = 1;
          this.#rows = [];
          this.#break(2);
        }
        return;
      default:
        // thead, tbody, tfoot, tr, th, td outside a table: layout only.
        return;
    }
  }

  /** A tag inside a table: rows and cells gathered, the table written as markdown when it closes. */
  #tableTag(closing: boolean, name: string): void {
    // A table in a table: its cells' text goes on in the outer cell.
    if (name === "table") {
      this.#tables += closing ? -1 : 1;
      if (this.#tables > 0) return;
      this.#endCell();
      this.#endRow();
      this.#writeTable();
      return;
    }
    if (this.#tables > 1) return;
    if (name === "td" || name === "th") {
      this.#endCell();
      if (!closing) {
        this.#row ??= [];
        this.#cell = "";
      }
    } else if (name === "tr") {
      this.#endCell();
      this.#endRow();
    }
    // Any other block tag in a table: its text goes on in the cell.
  }

  #endCell(): void {
    if (this.#cell === undefined) return;
    this.#row!.push(this.#cell.trim().replaceAll("|", "\\|"));
    this.#cell = undefined;
  }

  #endRow(): void {
    if (this.#row?.length) this.#rows.push(this.#row);
    this.#row = undefined;
  }

  #writeTable(): void {
    const [header, ...body] = this.#rows;
    if (!header) return;
    const width = Math.max(...this.#rows.map((row) => row.length));
    const line = (cells: readonly string[]) => `| ${Array.from({ length: width }, (_, i) => cells[i] ?? "").join(" | ")} |`;
    this.#out.push([line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n"));
    this.#break(2);
  }
}

/** Markdown quote lines of `text`. */
function quoted(text: string): string {
  return text
    .split("\n")
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");
}
