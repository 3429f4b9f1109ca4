import { formatCount, ToolError } from "@selu-catalogue/kit";
import { PDF_LIMITS as L } from "../limits.js";
import type { Block } from "./schema.js";

type Align = "left" | "center" | "right";

/**
 * The blocks a paragraph's text means. Models often write markdown where the document model has blocks
 * (issue 17 item 2): a blank line between paragraphs, a markdown table, a `-` or `1.` list. Where that is
 * unambiguous it is taken as meant: the text is split at blank lines, and a part whose lines are all list
 * items becomes a list; a table (header row, `|---|` row, body rows) becomes a table with the text
 * around it kept as paragraphs. Anything else stays one paragraph, its line breaks kept.
 */
export function paragraphBlocks(text: string, field: string): Block[] {
  // One line (most paragraphs) is one paragraph: no parts, lists or tables to look for.
  if (!text.includes("\n")) {
    const trimmed = text.trim();
    return trimmed ? [{ type: "paragraph", text: trimmed }] : [];
  }
  const blocks: Block[] = [];
  for (const part of text.split(/\n[ \t]*\n/)) {
    if (!/\S/.test(part)) continue;
    const lines = part.split("\n");
    const list = listOf(lines);
    if (list) {
      blocks.push(list);
      continue;
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
  return blocks;
}

function pushParagraph(blocks: Block[], lines: string[]): void {
  const text = lines.join("\n").trim();
  if (text) blocks.push({ type: "paragraph", text });
}

const ITEM = /^\s*(?:([-*•+])|(\d{1,3})[.)])\s+(\S.*)$/;

/**
 * A part of two or more lines, every one an item of one kind (all bullets or all numbers), as a flat
 * list. One line alone stays text: "31. März …" starts a German sentence, not a list.
 */
function listOf(lines: string[]): Block | undefined {
  if (lines.length < 2) return undefined;
  const items = lines.map((line) => ITEM.exec(line));
  // An item past the list item bound stays paragraph text (drawn in pieces), not a list.
  if (items.some((m) => !m || m[3]!.length > L.maxItemChars)) return undefined;
  const ordered = items[0]![2] !== undefined;
  if (items.some((m) => (m![2] !== undefined) !== ordered)) return undefined;
  return { type: "list", ordered, items: items.map((m) => m![3]!.trim()) };
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
