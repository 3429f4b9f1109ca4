import { formatCount, ToolError } from "@selu-catalogue/kit";
import { PDF_LIMITS as L } from "../limits.js";
import type { Block } from "./schema.js";

type Align = "left" | "center" | "right";

/** A block of the document model, or a horizontal rule (`---`), which only markdown writes. */
export type MarkdownBlock = Block | { type: "rule" };

/**
 * The blocks a paragraph's text means. Models often write markdown where the document model has blocks
 * (issue 17 item 2): a blank line between paragraphs, a markdown table, a `-` or `1.` list, a `#` heading,
 * a `>` quote, a `---` rule, a fenced code block. Where that is unambiguous it is taken as meant: fenced
 * code becomes a code block; the rest is split at blank lines; a `#` heading line, or one line of text
 * underlined with `===` or `---`, becomes a bold paragraph of its own; a `---`, `***` or `___` line
 * alone a horizontal rule; `> ` lines a quote (a last line `— Name` its attribution); lines that are all
 * list items (indented ones nested), after any lines of lead-in text, become a list; a table (header
 * row, `|---|` row, body rows) becomes a table with the text around it kept as paragraphs. Anything else
 * stays one paragraph, its line breaks kept.
 */
export function paragraphBlocks(text: string, field: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  // One line (most paragraphs) has no fences or blank lines to split at, and is read trimmed.
  if (!text.includes("\n")) {
    partBlocks(blocks, [text.trim()], field);
    return blocks;
  }
  for (const segment of fencedCode(text)) {
    if (typeof segment !== "string") blocks.push(segment);
    else for (const part of segment.split(/\n[ \t]*\n/)) if (/\S/.test(part)) partBlocks(blocks, part.split("\n"), field);
  }
  return blocks;
}

// A markdown heading line: `#` to `######`, a space, its text. No lazy match against the line's end: that
// is rescanned at every run of spaces (a 200,000-character line took half a minute).
const HEADING_START = /^ {0,3}#{1,6}[ \t]+(?=\S)/;

/** The text of a markdown heading line (its closing run of `#` dropped), or undefined. */
function headingText(line: string): string | undefined {
  const start = HEADING_START.exec(line);
  if (!start) return undefined;
  let text = line.slice(start[0].length).trimEnd();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  if (end < text.length && (end === 0 || text[end - 1] === " " || text[end - 1] === "\t")) text = text.slice(0, end).trimEnd();
  return text || undefined;
}

/** A heading written in markdown, as the document model has no heading inside a section: a bold paragraph. */
function boldParagraph(text: string): Block {
  return { type: "paragraph", text: `**${text.replaceAll("**", "")}**` };
}

// The line that opens a fenced code block: ``` or ~~~, then an info string naming the language. Tested on
// one line at a time, and the closing line found with indexOf: a pattern over the whole text rescanned it
// from every fence that never closes (seconds for 200,000 characters).
const FENCE_OPEN = /^ {0,3}(```|~~~)[ \t]*([\w+#.-]{0,40})/;

/** The text around fenced code blocks, and the code blocks (blank lines inside code are the code's). */
function fencedCode(text: string): (string | Block)[] {
  if (!text.includes("```") && !text.includes("~~~")) return [text];
  const lines = text.split("\n");
  const segments: (string | Block)[] = [];
  // Markers found with no closing line after them: a later opener of the same kind has none either.
  const unclosed = new Set<string>();
  let from = 0;
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE_OPEN.exec(lines[i]!);
    if (!open || unclosed.has(open[1]!)) continue;
    const close = closingLine(lines, i + 1, open[1]!);
    if (close === -1) {
      unclosed.add(open[1]!);
      continue;
    }
    segments.push(lines.slice(from, i).join("\n"));
    const code = lines.slice(i + 1, close).join("\n");
    if (/\S/.test(code)) segments.push({ type: "code", text: code, ...(open[2] ? { language: open[2] } : {}) });
    from = close + 1;
    i = close;
  }
  segments.push(lines.slice(from).join("\n"));
  return segments;
}

/** The index of the line closing a fence of `marker` (the marker alone, up to three spaces before it), or -1. */
function closingLine(lines: readonly string[], from: number, marker: string): number {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    const at = line.indexOf(marker);
    if (at !== -1 && at <= 3 && line.slice(0, at).trim() === "" && line.slice(at + 3).trim() === "") return i;
  }
  return -1;
}

/**
 * The blocks of one part between blank lines: headings (a `#` line, or a line underlined), rules and
 * quotes, then lists and tables among the paragraph lines between them.
 */
function partBlocks(blocks: MarkdownBlock[], lines: string[], field: string): void {
  // A part next to a code fence may keep a blank line at either end.
  while (lines.length > 0 && !/\S/.test(lines.at(-1)!)) lines.pop();
  while (lines.length > 0 && !/\S/.test(lines[0]!)) lines.shift();
  /** The lines [from, to) as lists, tables and paragraphs. */
  const text = (from: number, to: number) => {
    if (to > from) linesBlocks(blocks, lines.slice(from, to), field);
  };
  let start = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = headingText(line);
    if (heading) {
      text(start, i);
      blocks.push(boldParagraph(heading));
    } else if (SETEXT.test(line) && i === start + 1 && isPlainLine(lines[start]!)) {
      // One line of text underlined with === or ---: a heading of its own, as a `#` line.
      blocks.push(boldParagraph(lines[start]!.trim()));
    } else if (RULE.test(line)) {
      text(start, i);
      blocks.push({ type: "rule" });
    } else if (QUOTE_LINE.test(line)) {
      let end = i + 1;
      while (end < lines.length && QUOTE_LINE.test(lines[end]!)) end++;
      // `— Name` on the line after the quote, without its marker, is the attribution too.
      if (end < lines.length && ATTRIBUTION.test(lines[end]!.trim())) end++;
      const quote = quoteOf(lines.slice(i, end));
      // Markers with nothing quoted stay as text.
      if (!quote) {
        i = end - 1;
        continue;
      }
      text(start, i);
      blocks.push(quote);
      i = end - 1;
    } else continue;
    start = i + 1;
  }
  text(start, lines.length);
}

// A thematic break: three or more `-`, `*` or `_` alone on a line, spaces between them allowed.
const RULE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
// The underline of a heading: three or more `=` or `-` alone on the line under its one line of text (not
// an email signature's `-- `, not a paragraph of several lines, which CommonMark would take whole).
const SETEXT = /^ {0,3}(?:={3,}|-{3,})[ \t]*$/;
// A quote's line: `>` and a space, or `>` alone (not `>50 %`, `>= 18`).
const QUOTE_LINE = /^ {0,3}>(?:[ \t>]|$)/;
// An attribution closing a quote: a dash, then a name (not a dash: `---` is a rule); `— *Alan Kay*` too.
const ATTRIBUTION = /^(?:—|–|--|―)\s*([^\s—–―-].*)$/u;
const MAX_ATTRIBUTION = 200;

/** A line of text a heading underline can make a heading: not a list item or a table row. */
function isPlainLine(line: string): boolean {
  return !ITEM.test(line) && !cellsOf(line);
}

/** `>` lines as a quote block: the markers dropped, a last line `— Name` (quoted or not) its attribution; undefined if empty. */
function quoteOf(lines: string[]): MarkdownBlock | undefined {
  // Nested quotes (`>>`) are read as one.
  const text = lines.map((line) => line.replace(/^ {0,3}(?:>[ \t]?)+/, "").trimEnd());
  // Only as long as a quote block's attribution may be: a longer last line stays quoted text.
  const by = text.length > 1 ? ATTRIBUTION.exec(text.at(-1)!.trim())?.[1] : undefined;
  const attribution = by !== undefined && by.length <= MAX_ATTRIBUTION ? by : undefined;
  if (attribution !== undefined) text.pop();
  const quoted = text.join("\n").trim();
  if (!quoted) return undefined;
  return attribution !== undefined ? { type: "quote", text: quoted, attribution } : { type: "quote", text: quoted };
}

/** Lines without headings: a list (after any lead-in text), else tables among paragraph text. */
function linesBlocks(blocks: MarkdownBlock[], lines: string[], field: string): void {
  const first = lines.findIndex((line) => ITEM.test(line));
  const list = first >= 0 ? listOf(lines.slice(first)) : undefined;
  if (list) {
    pushParagraph(blocks, lines.slice(0, first));
    blocks.push(list);
    return;
  }
  let start = 0;
  for (let i = 0; i + 1 < lines.length; i++) {
    const header = cellsOf(lines[i]!);
    const aligns = header && alignsOf(lines[i + 1]!, header.length);
    if (!header || !aligns) continue;
    let end = i + 2;
    while (end < lines.length && cellsOf(lines[end]!)) end++;
    pushParagraph(blocks, lines.slice(start, i));
    blocks.push(tableOf(header, aligns, lines.slice(i + 2, end), field));
    start = end;
    i = end - 1;
  }
  pushParagraph(blocks, lines.slice(start));
}

function pushParagraph(blocks: MarkdownBlock[], lines: string[]): void {
  const text = lines.join("\n").trim();
  if (text) blocks.push({ type: "paragraph", text });
}

const ITEM = /^([ \t]*)(?:([-*•+])|(\d{1,3})[.)])\s+(\S.*)$/;

type Item = string | { text: string; items: Item[] };

/**
 * Two or more lines, every one an item, as a list: the top level all bullets or all numbers, an item
 * indented further than the one before nested under it (down to the deepest level lists have). One line
 * alone stays text: "31. März …" starts a German sentence, not a list.
 */
function listOf(lines: string[]): Block | undefined {
  if (lines.length < 2) return undefined;
  const items = lines.map((line) => ITEM.exec(line));
  // An item past the list item bound stays paragraph text (drawn in pieces), not a list.
  if (items.some((m) => !m || m[4]!.length > L.maxItemChars)) return undefined;
  const indent = (m: RegExpExecArray) => m[1]!.replaceAll("\t", "    ").length;
  const top = indent(items[0]!);
  const ordered = items[0]![3] !== undefined;
  if (items.some((m) => indent(m!) <= top && (m![3] !== undefined) !== ordered)) return undefined;
  const root: Item[] = [];
  // The open levels: each one's indent and items; an item goes into the deepest whose indent it passes.
  const levels: { indent: number; items: Item[] }[] = [{ indent: top, items: root }];
  for (const m of items) {
    const at = indent(m!);
    while (levels.length > 1 && at <= levels.at(-2)!.indent) levels.pop();
    let level = levels.at(-1)!;
    if (at > level.indent && levels.length < L.maxListDepth && level.items.length > 0) {
      const parent = level.items.at(-1)!;
      const nested: Item[] = typeof parent === "string" ? [] : parent.items;
      if (typeof parent === "string") level.items[level.items.length - 1] = { text: parent, items: nested };
      level = { indent: at, items: nested };
      levels.push(level);
    }
    level.items.push(m![4]!.trim());
  }
  return { type: "list", ordered, items: root };
}

/** The cells of a table row `| a | b |` (outer pipes optional, `\|` is a literal pipe), or undefined. */
function cellsOf(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.includes("|")) return undefined;
  const cells = trimmed
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll("\\|", "|"));
  return cells.length >= 2 || trimmed.startsWith("|") ? cells : undefined;
}

/** The alignments of a delimiter row `|:--|:-:|--:|` with one cell per header cell, or undefined. */
function alignsOf(line: string, columns: number): Align[] | undefined {
  const cells = cellsOf(line);
  if (!cells || cells.length !== columns || !cells.every((c) => /^:?-+:?$/.test(c))) return undefined;
  return cells.map((c) => (c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : "left"));
}

/** As GitHub reads a table: short rows get empty cells, extra cells are dropped. */
function tableOf(header: string[], aligns: Align[], body: string[], field: string): Block {
  if (header.length > L.maxTableColumns) {
    throw new ToolError(`${field}: the markdown table has ${header.length} columns, at most ${L.maxTableColumns} fit; split it into several tables`);
  }
  if (body.length > L.maxTableRows) throw new ToolError(`${field}: the markdown table has ${body.length} rows, at most ${L.maxTableRows}; split it into several tables`);
  const rows = body.map((line) => {
    const cells = cellsOf(line)!.slice(0, header.length);
    while (cells.length < header.length) cells.push("");
    return cells;
  });
  for (const [r, row] of rows.entries()) {
    const long = row.findIndex((cell) => cell.length > L.maxCellChars);
    if (long >= 0) throw new ToolError(`${field}: the markdown table's row ${r + 1} has a cell over ${formatCount(L.maxCellChars)} characters; shorten it`);
  }
  return { type: "table", columns: header.map((h, c) => ({ header: h, align: aligns[c]! })), rows };
}
