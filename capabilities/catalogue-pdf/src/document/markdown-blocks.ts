import { formatCount, ToolError } from "@selu-catalogue/kit";
import { PDF_LIMITS as L } from "../limits.js";
import type { Block, ListItem } from "./schema.js";
import { htmlAsMarkdown } from "./html-blocks.js";

type Align = "left" | "center" | "right";

/**
 * A block of the document model, a horizontal rule (`---`), or a paragraph that is a heading (a `#` line,
 * set bold, kept with what follows it and tagged a heading), which only markdown writes.
 */
export type MarkdownBlock = Block | { type: "rule" } | { type: "paragraph"; text: string; heading: true };

/**
 * The blocks a paragraph's text means. Models often write markdown where the document model has blocks
 * (issue 17 item 2): a blank line between paragraphs, a markdown table, a `-` or `1.` list, a `#` heading,
 * a `>` quote, a `---` rule, a fenced code block. Where that is unambiguous it is taken as meant: fenced
 * code becomes a code block; the rest is split at blank lines; a `#` heading line, or one line of text
 * underlined with `===` or `---`, becomes a bold paragraph of its own; a `---`, `***` or `___` line
 * alone a horizontal rule; `> ` lines a quote (a last line `— Name` its attribution); a run of list
 * items becomes a list (indented items nested, indented lines joined to their item, blank lines between
 * items allowed, a change from bullets to numbers a new list, a numbered list starting at its first
 * number); a table (header row, `|---|` row, body rows) becomes a table. The text around them stays
 * paragraphs, their line breaks kept.
 */
export function paragraphBlocks(written: string, field: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  // HTML blocks (<p>, <ul>, <h2>, <table>, …) as the markdown they stand for.
  const text = htmlAsMarkdown(written);
  // One line (most paragraphs) has no fences or blank lines to split at, and is read trimmed.
  if (!text.includes("\n")) {
    partBlocks(blocks, [text.trim()], field, false);
    return blocks;
  }
  const segments = fencedCode(text);
  // One numbered line alone is a list only among others outside code ("3. Run it" between code blocks),
  // not on its own ("31. März ist der Stichtag.").
  let numberedLines = 0;
  for (const segment of segments) if (typeof segment === "string") numberedLines += segment.match(NUMBERED_LINE)?.length ?? 0;
  for (const segment of segments) {
    if (typeof segment !== "string") blocks.push(segment);
    else for (const part of looseLists(segment.split(/\n[ \t]*\n/))) partBlocks(blocks, part, field, numberedLines >= 2);
  }
  return blocks;
}

const NUMBERED_LINE = /^[ \t]*\d{1,3}[.)][ \t]+\S/gm;

/**
 * The parts between blank lines as lines, a part that goes on with a list (an item, or a line indented
 * under one) joined to the part before it when that one ends in the list: items written with blank lines
 * between them are one list.
 */
function looseLists(parts: readonly string[]): string[][] {
  const joined: string[][] = [];
  // Whether the lines joined so far end in a list: each part is read once, so hostile text of thousands of
  // indented parts stays linear.
  let inList = false;
  for (const part of parts) {
    if (!/\S/.test(part)) continue;
    const lines = part.split("\n");
    while (lines.length > 0 && !/\S/.test(lines[0]!)) lines.shift();
    const continues: boolean = inList && (ITEM.test(lines[0]!) || indentOf(lines[0]!) >= CONTINUATION_INDENT);
    if (continues) {
      const before = joined.at(-1)!;
      for (const line of lines) before.push(line);
    } else joined.push(lines);
    inList = endsInList(lines) ?? continues;
  }
  return joined;
}

/**
 * Whether the last lines of a part are a list item and the lines indented under it: true, false when an
 * unindented line that is no item ends it, undefined when every line is indented (it goes on with what
 * came before).
 */
function endsInList(lines: readonly string[]): boolean | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!/\S/.test(lines[i]!)) continue;
    if (ITEM.test(lines[i]!)) return true;
    if (indentOf(lines[i]!) < CONTINUATION_INDENT) return false;
  }
  return undefined;
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
function boldParagraph(text: string): MarkdownBlock {
  return { type: "paragraph", text: `**${text.replaceAll("**", "")}**`, heading: true };
}

// The line that opens a fenced code block: ``` or ~~~, then an info string naming the language. Tested on
// one line at a time, and the closing line found with indexOf: a pattern over the whole text rescanned it
// from every fence that never closes (seconds for 200,000 characters).
const FENCE_OPEN = /^[ \t]*(```|~~~)[ \t]*([\w+#.-]{0,40})/;

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
    // Set in as far as its fence is (a fence under a list item): the code without that indent.
    const indent = lines[i]!.length - lines[i]!.trimStart().length;
    const code = lines
      .slice(i + 1, close)
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join("\n");
    if (/\S/.test(code)) segments.push({ type: "code", text: code, ...(open[2] ? { language: open[2] } : {}) });
    from = close + 1;
    i = close;
  }
  segments.push(lines.slice(from).join("\n"));
  return segments;
}

/**
 * The index of the line closing a fence of `marker` (the marker alone, set in as far as need be: a fence
 * in a list item is set in under it), or -1.
 */
function closingLine(lines: readonly string[], from: number, marker: string): number {
  for (let i = from; i < lines.length; i++) {
    const line = lines[i]!;
    const at = line.indexOf(marker);
    if (at !== -1 && line.slice(0, at).trim() === "" && line.slice(at + 3).trim() === "") return i;
  }
  return -1;
}

/**
 * The blocks of one part between blank lines: headings (a `#` line, or a line underlined), rules and
 * quotes, then lists and tables among the paragraph lines between them.
 */
function partBlocks(blocks: MarkdownBlock[], lines: string[], field: string, numbered: boolean): void {
  // A part next to a code fence may keep a blank line at either end.
  while (lines.length > 0 && !/\S/.test(lines.at(-1)!)) lines.pop();
  while (lines.length > 0 && !/\S/.test(lines[0]!)) lines.shift();
  /** The lines [from, to) as lists, tables and paragraphs. */
  const text = (from: number, to: number) => {
    if (to > from) linesBlocks(blocks, lines.slice(from, to), field, numbered);
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
    } else if (RULE.test(line) && !SIGNING_LINE.test(line)) {
      text(start, i);
      blocks.push({ type: "rule" });
    } else if (PAGE_BREAK.test(line)) {
      text(start, i);
      blocks.push({ type: "page_break" });
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

// A page break as other formats write one: LaTeX's `\newpage`, HTML's `<div style="page-break-after:
// always">` (or `break-before: page`), a `<!-- pagebreak -->` comment.
const PAGE_BREAK =
  /^[ \t]*(?:\\(?:newpage|pagebreak|clearpage)(?:\{\})?|<(?:div|p|hr|br)\b[^>]*(?:page-break-(?:after|before)|break-(?:after|before))\s*:\s*(?:always|page)[^>]*>(?:\s*<\/(?:div|p)>)?|<!--\s*page\s*-?break\s*-->)[ \t]*$/i;
// Ten or more underscores alone on a line: a line to sign or write on, not a rule.
const SIGNING_LINE = /_{10,}/;
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

/** Lines without headings: lists and tables among paragraph text. */
function linesBlocks(blocks: MarkdownBlock[], lines: string[], field: string, numbered: boolean): void {
  // The first line of the paragraph text not yet pushed.
  let start = 0;
  let i = 0;
  while (i < lines.length) {
    const end = listRunEnd(lines, i, numbered);
    // One numbered line alone stays a line of the paragraph it is in ("Der Termin:\n31. März …\nBitte").
    if (end > i && !numbered && loneNumbered(lines, i, end)) {
      i++;
      continue;
    }
    if (end > i) {
      const lists = listsOf(lines.slice(i, end));
      if (lists) {
        pushParagraph(blocks, lines.slice(start, i));
        blocks.push(...lists);
        start = end;
      }
      i = end;
      continue;
    }
    const header = cellsOf(lines[i]!);
    const aligns = header && i + 1 < lines.length ? alignsOf(lines[i + 1]!, header.length) : undefined;
    if (header && aligns) {
      let last = i + 2;
      while (last < lines.length && cellsOf(lines[last]!)) last++;
      pushParagraph(blocks, lines.slice(start, i));
      blocks.push(
        tableOf(
          header,
          aligns,
          lines.slice(i + 2, last).map((line) => cellsOf(line)!),
          field,
        ),
      );
      start = i = last;
      continue;
    }
    // Tab-separated lines (pasted from a spreadsheet), two or more with as many cells: a table, the first its header.
    const tabbed = tabCells(lines[i]!);
    if (tabbed) {
      let last = i + 1;
      while (last < lines.length && tabCells(lines[last]!)?.length === tabbed.length) last++;
      if (last - i >= 2) {
        pushParagraph(blocks, lines.slice(start, i));
        blocks.push(
          tableOf(
            tabbed,
            [],
            lines.slice(i + 1, last).map((line) => tabCells(line)!),
            field,
          ),
        );
        start = i = last;
        continue;
      }
    }
    i++;
  }
  pushParagraph(blocks, lines.slice(start));
}

function pushParagraph(blocks: MarkdownBlock[], lines: string[]): void {
  const text = lines.join("\n").trim();
  if (text) blocks.push({ type: "paragraph", text });
}

const ITEM = /^([ \t]*)(?:([-*•+])|(\d{1,3})([.)]))\s+(\S.*)$/;
// A clause set in under an item ("   1.1 Scope"): an item of its own, numbered as written.
const CLAUSE = /^[ \t]*(\d{1,3}(?:\.\d{1,3})+\.?)[ \t]+(\S.*)$/;
/** How far a line is set in under its item's marker to go on with the item's text. */
const CONTINUATION_INDENT = 2;

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0].replaceAll("\t", "    ").length;

/**
 * Where the run of list lines starting at `from` ends: items, and lines set in under them (which go on
 * with the item before them); `from` itself when that line is no item. Outside a `numbered` context it
 * ends before a numbered line alone at its level (which stays text, see {@link loneNumbered}).
 */
function listRunEnd(lines: readonly string[], from: number, numbered: boolean): number {
  if (!ITEM.test(lines[from]!)) return from;
  const top = indentOf(lines[from]!);
  let end = from + 1;
  while (end < lines.length && (ITEM.test(lines[end]!) || (/\S/.test(lines[end]!) && indentOf(lines[end]!) >= top + CONTINUATION_INDENT && !tableStarts(lines, end)))) end++;
  if (numbered) return end;
  for (let i = from + 1; i < end; i++) if (indentOf(lines[i]!) <= top && loneNumbered(lines, i, end)) return i;
  return end;
}

/** Whether the item at line `at` is numbered and the next item at its level in the run (to `end`) is not. */
function loneNumbered(lines: readonly string[], at: number, end: number): boolean {
  if (ITEM.exec(lines[at]!)?.[3] === undefined) return false;
  const top = indentOf(lines[at]!);
  for (let i = at + 1; i < end; i++) {
    const m = ITEM.exec(lines[i]!);
    if (m && indentOf(lines[i]!) <= top) return m[3] === undefined;
  }
  return true;
}

/** Whether a markdown table (a header row, then its `|---|` row) starts at line `at`. */
function tableStarts(lines: readonly string[], at: number): boolean {
  const header = cellsOf(lines[at]!);
  return header !== undefined && at + 1 < lines.length && alignsOf(lines[at + 1]!, header.length) !== undefined;
}

type Item = string | { text: string; items: Item[] };

/**
 * List items written as markdown list lines inside one item, as a model writes a nested list: an item
 * whose text goes on, after a line feed, with list lines ("Phase 1\n  - design\n  - review") gets them as
 * its nested items (before any it has); one that is list lines throughout ("- a\n- b") becomes the items
 * they are. Read as a list in text is (nested by their indents, irregular numbers kept). Other items are
 * kept as they are.
 */
export function nestWrittenItems(items: readonly ListItem[]): ListItem[] {
  return items.flatMap((item): ListItem[] => {
    const text = typeof item === "string" ? item : item.text;
    if (!text.includes("\n")) return [item];
    const lines = text.split(/\r?\n/);
    const first = lines.findIndex((line) => ITEM.test(line));
    if (first < 0) return [item];
    const head = lines.slice(0, first).join("\n").trimEnd();
    // List lines throughout are items only when more than one: one item line with more text is an item.
    if (!head.trim() && !lines.slice(first + 1).some((line) => ITEM.test(line))) return [item];
    const lists = listsOf(lines.slice(first).filter((line) => line.trim()));
    if (!lists) return [item];
    const written = lists.flatMap((list) => (list.type === "list" ? list.items : []));
    const own = typeof item === "string" ? [] : (item.items ?? []);
    if (head.trim()) return [{ text: head, items: [...written, ...own] }];
    // List lines throughout: the items they are, the item's own nested items under the last.
    if (own.length === 0) return written;
    const last = written.at(-1)!;
    return [...written.slice(0, -1), typeof last === "string" ? { text: last, items: own } : { ...last, items: [...(last.items ?? []), ...own] }];
  });
}

/**
 * A run of list lines as lists: a new one wherever the top level changes from bullets to numbers or back,
 * an item indented further than the one before nested under it (down to the deepest level lists have),
 * a line set in under an item joined to its text. Undefined (the lines stay text) for an item past the
 * list item bound (drawn as paragraph text).
 */
function listsOf(lines: string[]): Block[] | undefined {
  const items: ListLine[] = [];
  for (const line of lines) {
    const m = ITEM.exec(line);
    const clause = m ? undefined : CLAUSE.exec(line);
    if (m) items.push({ indent: indentOf(line), ordered: m[3] !== undefined, number: Number(m[3] ?? 1), text: m[5]!.trim(), ...(m[4] ? { delimiter: m[4] } : {}) });
    else if (clause && indentOf(line) > items[0]!.indent) items.push({ indent: indentOf(line), ordered: true, number: Number.NaN, text: `${clause[1]} ${clause[2]!.trim()}` });
    else items.at(-1)!.text += ` ${line.trim()}`;
  }
  if (items.some((item) => item.text.length > L.maxItemChars)) return undefined;
  const top = items[0]!.indent;
  const lists: Block[] = [];
  let from = 0;
  for (let i = 1; i <= items.length; i++) {
    if (i < items.length && !(items[i]!.indent <= top && items[i]!.ordered !== items[from]!.ordered)) continue;
    lists.push(listOf(items.slice(from, i)));
    from = i;
  }
  return lists;
}

/**
 * An item line as read: its indent, kind, number and the delimiter after it (a clause's number is in its
 * text, its number NaN), its text (lines set in under it joined).
 */
interface ListLine {
  indent: number;
  ordered: boolean;
  number: number;
  delimiter?: string;
  text: string;
}

/**
 * Items of one list, nested by their indents; a numbered list not starting at 1 keeps its first number.
 * Numbers that don't count on by one ("4.", "7.", "12.", or a date's day, "31. März" then "1. April")
 * stay in their items' texts, to be drawn as written (document/prepare.ts, ownMarkers).
 */
function listOf(items: readonly ListLine[]): Block {
  const root: Item[] = [];
  // The open levels: each one's indent, items and lines; an item goes into the deepest whose indent it passes.
  type Level = { indent: number; items: Item[]; lines: ListLine[] };
  const levels: Level[] = [{ indent: items[0]!.indent, items: root, lines: [] }];
  const all = [...levels];
  for (const item of items) {
    while (levels.length > 1 && item.indent <= levels.at(-2)!.indent) levels.pop();
    let level = levels.at(-1)!;
    if (item.indent > level.indent && levels.length < L.maxListDepth && level.items.length > 0) {
      const parent = level.items.at(-1)!;
      const nested: Item[] = typeof parent === "string" ? [] : parent.items;
      if (typeof parent === "string") level.items[level.items.length - 1] = { text: parent, items: nested };
      level = { indent: item.indent, items: nested, lines: [] };
      levels.push(level);
      all.push(level);
    }
    level.items.push(item.text);
    level.lines.push(item);
  }
  for (const level of all) {
    const numbers = level.lines.map((line) => (line.delimiter ? line.number : Number.NaN));
    const countsOn = numbers.every((n, i) => n === numbers[0]! + i) || numbers.every((n) => n === numbers[0]);
    if (countsOn || numbers.some((n) => Number.isNaN(n))) continue;
    level.items.forEach((item, i) => {
      const written = `${numbers[i]}${level.lines[i]!.delimiter} `;
      level.items[i] = typeof item === "string" ? written + item : { ...item, text: written + item.text };
    });
  }
  const { ordered, number } = items[0]!;
  return ordered && number !== 1 ? { type: "list", ordered, start: number, items: root } : { type: "list", ordered, items: root };
}

/** The cells of a table row `| a | b |` (outer pipes optional, `\|` is a literal pipe), or undefined. */
export function cellsOf(line: string): string[] | undefined {
  const trimmed = line.trim();
  if (!trimmed.includes("|")) return undefined;
  const cells = trimmed
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "")
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replaceAll("\\|", "|"));
  return cells.length >= 2 || trimmed.startsWith("|") ? cells : undefined;
}

/** The cells of a line with tabs between them, two or more with text in the first, or undefined. */
function tabCells(line: string): string[] | undefined {
  if (!line.includes("\t")) return undefined;
  const cells = line
    .trim()
    .split("\t")
    .map((cell) => cell.trim());
  return cells.length >= 2 && cells[0] !== "" ? cells : undefined;
}

/**
 * The alignments of a delimiter row `|:--|:-:|--:|` with one cell per header cell (undefined for `---`,
 * which sets none: the column's content decides), or undefined when the line is not one.
 */
function alignsOf(line: string, columns: number): (Align | undefined)[] | undefined {
  const cells = cellsOf(line);
  if (!cells || cells.length !== columns || !cells.every((c) => /^:?-+:?$/.test(c))) return undefined;
  return cells.map((c) => (c.startsWith(":") && c.endsWith(":") ? "center" : c.endsWith(":") ? "right" : c.startsWith(":") ? "left" : undefined));
}

/**
 * As GitHub reads a table, but losing no text: short rows get empty cells, and a row's cells past the
 * header's, when there is text in them, columns of their own under an empty header (GitHub drops them).
 */
function tableOf(header: string[], aligns: readonly (Align | undefined)[], bodyCells: string[][], field: string): Block {
  if (bodyCells.length > L.maxTableRows) throw new ToolError(`${field}: the markdown table has ${bodyCells.length} rows, at most ${L.maxTableRows}; split it into several tables`);
  let width = header.length;
  for (const cells of bodyCells) for (let c = cells.length - 1; c >= width; c--) if (cells[c] !== "") width = c + 1;
  if (width > L.maxTableColumns) {
    const more = width > header.length ? ` (${width - header.length} more in its rows than in its header)` : "";
    throw new ToolError(`${field}: the markdown table has ${width} columns${more}, at most ${L.maxTableColumns} fit; split it into several tables`);
  }
  const rows = bodyCells.map((cells) => {
    const row = cells.slice(0, width);
    while (row.length < width) row.push("");
    return row;
  });
  for (const [r, row] of rows.entries()) {
    const long = row.findIndex((cell) => cell.length > L.maxCellChars);
    if (long >= 0) throw new ToolError(`${field}: the markdown table's row ${r + 1} has a cell over ${formatCount(L.maxCellChars)} characters; shorten it`);
  }
  return { type: "table", columns: Array.from({ length: width }, (_, c) => ({ header: header[c] ?? "", ...(aligns[c] ? { align: aligns[c] } : {}) })), rows };
}
