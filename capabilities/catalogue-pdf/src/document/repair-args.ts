import { quotedKeys, ToolError } from "@selu-catalogue/kit";
import { cellsOf as tableCells } from "./markdown-blocks.js";

// What models write for create_pdf_document's blocks in another shape than the schema's: block types
// from other document models (a `heading`, a `bullet_list`, a `divider`) and other names for a block's
// keys (a table's `headers`, an image's `src`). In Selu an argument error can end the user's turn (issue
// 17 item 2), so these are taken as meant: the kit calls this only after a failed parse and parses again,
// so the schema the model sees stays the one source of truth and a valid call pays nothing.

type Block = Record<string, unknown>;

/**
 * Rewrites the arguments in place: the blocks of `args.sections[].content`, and the document's own
 * fields given blank or a file name without its `.pdf`; true when it changed anything.
 */
export function repairDocumentArgs(args: Record<string, unknown>): boolean {
  let changed = repairFilename(args);
  // Blank is "not given" for these, as for a blank subtitle or author (a model filling every field).
  for (const key of ["language", "creation_date"]) changed = dropBlank(args, key) || changed;
  const { sections } = args;
  if (!Array.isArray(sections)) return changed;
  for (const [s, section] of sections.entries()) {
    if (!isBlock(section)) continue;
    // A section's keys as other document models name them: its heading as `title`, its content as `body`…
    for (const [from, to] of SECTION_KEYS) changed = rename(section, from, to) || changed;
    if (!Array.isArray(section.content)) continue;
    const content: unknown[] = section.content;
    changed = withoutNulls(content) || changed;
    for (const [b, item] of content.entries()) if (isBlock(item)) changed = repairBlock(item, `sections[${s}].content[${b}]`) || changed;
    changed = titlesAbove(content) || changed;
  }
  return changed;
}

// Other names of a section's keys: only where the section has no key of that name already (rename).
const SECTION_KEYS: readonly [string, string][] = [
  ["title", "heading"],
  ["header", "heading"],
  ["name", "heading"],
  ["body", "content"],
  ["blocks", "content"],
  ["paragraphs", "content"],
  ["text", "content"],
];

/**
 * `filename` given blank is left out; a path is cut to its last part; one without `.pdf` gets it
 * (`report`, `Report.PDF`, `notes.docx` → `notes.pdf`); true when changed.
 */
export function repairFilename(args: Record<string, unknown>): boolean {
  if (dropBlank(args, "filename")) return true;
  if (typeof args.filename !== "string") return false;
  // A path names the file at its end ("C:\Users\me\q3.pdf", "/tmp/q3.pdf"): there are no folders here.
  // Nothing else is changed: a name with a leading space or an invisible character is still refused. The
  // extension of the document the model had in mind (report.docx) gives way to .pdf.
  const name = (args.filename.split(/[\\/]/).findLast((part) => part.trim() !== "") ?? "").replace(OTHER_DOCUMENT, "");
  if (name === "") return false;
  const fixed = /\.pdf$/i.test(name) ? `${name.slice(0, -4)}.pdf` : `${name}.pdf`;
  if (fixed === args.filename) return false;
  args.filename = fixed;
  return true;
}

const OTHER_DOCUMENT = /\.(?:docx?|odt|rtf|txt|md|markdown|html?)$/i;

/** Deletes `args[key]` when it is a blank string; true when it did. */
function dropBlank(args: Record<string, unknown>, key: string): boolean {
  if (typeof args[key] !== "string" || /\S/.test(args[key])) return false;
  delete args[key];
  return true;
}

/** One block (at `field`): its type by another name first, then its keys by other names, then its values' shapes. */
function repairBlock(block: Block, field: string): boolean {
  const as = typeof block.type === "string" ? TYPES.get(loose(block.type)) : undefined;
  if (as) {
    block.type = as.type;
    if (as.ordered !== undefined && block.ordered === undefined) block.ordered = as.ordered;
  }
  let changed = as !== undefined;
  const keys = typeof block.type === "string" ? KEYS.get(block.type) : undefined;
  for (const [from, to] of keys ?? []) changed = rename(block, from, to) || changed;
  // Written as the markdown a paragraph reads: a heading becomes a bold paragraph (of any level: they are
  // drawn alike), a rule a rule.
  if (as?.heading && typeof block.text === "string") block.text = `# ${block.text}`;
  if (as?.heading) delete block.level;
  if (as?.rule) block.text = "---";
  // "true" and "false" for a list's `ordered`, and its kind as another model's key says it.
  if (block.type === "list" && (block.ordered === "true" || block.ordered === "false")) {
    block.ordered = block.ordered === "true";
    changed = true;
  }
  if (block.type === "list") changed = listKind(block) || changed;
  // A list's items, or a table's rows, given as lines of one string.
  if (block.type === "list" && typeof block.items === "string") {
    block.items = block.items.split(/\r?\n/).filter((line) => /\S/.test(line));
    changed = true;
  }
  if (block.type === "table" && Array.isArray(block.rows) && block.rows.some((row) => typeof row === "string")) {
    block.rows = block.rows.map((row) => (typeof row === "string" ? (tableCells(row) ?? [row.trim()]) : row));
    changed = true;
  }
  if (block.type === "list" && Array.isArray(block.items)) {
    changed = withoutNulls(block.items) || changed;
    changed = numbersAsText(block.items) || changed;
  }
  if (block.type === "table" && Array.isArray(block.rows)) changed = repairRows(block, field) || changed;
  return changed;
}

/**
 * A row object's values as cells under `headers` (see {@link repairRows}): each key under the header of
 * the same words, else the one header it starts or ends with ("revenue" for "Revenue (EUR)"), and one
 * key left over into the one column left. Selu sorts an object's keys, so their order means nothing:
 * keys left over otherwise are refused, naming them and the columns, never put in a column by guess.
 */
function cellsOf(row: Block, headers: readonly (string | undefined)[], field: string): unknown[] {
  const cells: unknown[] = Array.from({ length: headers.length });
  const headerWords = headers.map((h) => (h === undefined ? undefined : words(h)));
  const rest: [string, unknown][] = [];
  for (const [key, value] of Object.entries(row)) {
    const c = columnOf(words(key), headerWords, cells);
    if (c >= 0) cells[c] = value;
    else rest.push([key, value]);
  }
  const open = cells.flatMap((cell, c) => (cell === undefined && headers[c] !== undefined ? [c] : []));
  if (rest.length === 1 && open.length === 1) cells[open[0]!] = rest.pop()![1];
  else if (rest.length > 0 && headers.some((h) => h !== undefined)) {
    const named = headers.filter((h) => h !== undefined).map((h) => JSON.stringify(h));
    throw new ToolError(
      `${field}: ${rest.length === 1 ? "key" : "keys"} ${quotedKeys(rest.map(([key]) => key))} ${rest.length === 1 ? "matches" : "match"} no column ` +
        `(${named.join(", ")}); key each row by the column headers, or give it as a list of cells in the columns' order`,
    );
  }
  return [...Array.from(cells, (cell) => cell ?? ""), ...rest.map(([, value]) => value)];
}

/** A column name's words, lowercase: "Unit price", "unit_price" and "unitPrice" are the same three. */
function words(name: string): string[] {
  return name
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The free column whose header has `key`'s words, else the only one starting with them or they start with; -1 for none. */
function columnOf(key: readonly string[], headers: readonly (readonly string[] | undefined)[], cells: readonly unknown[]): number {
  if (key.length === 0) return -1;
  const free = (c: number) => headers[c] !== undefined && cells[c] === undefined;
  const same = headers.findIndex((h, c) => free(c) && h!.length === key.length && startsWith(h!, key));
  if (same >= 0) return same;
  const near = headers.flatMap((h, c) => (free(c) && (startsWith(h!, key) || startsWith(key, h!)) ? [c] : []));
  return near.length === 1 ? near[0]! : -1;
}

function startsWith(whole: readonly string[], start: readonly string[]): boolean {
  return start.length > 0 && start.length <= whole.length && start.every((word, i) => whole[i] === word);
}

/**
 * A table's or list's `caption`, `title` or `heading` (other models give them one) as a bold paragraph
 * above it, in `content`; true when there was one.
 */
function titlesAbove(content: unknown[]): boolean {
  let changed = false;
  for (let b = content.length - 1; b >= 0; b--) {
    const block = content[b];
    if (!isBlock(block) || (block.type !== "table" && block.type !== "list")) continue;
    for (const key of ["caption", "title", "heading"]) {
      const title = block[key];
      if (typeof title !== "string") continue;
      delete block[key];
      changed = true;
      if (/\S/.test(title)) content.splice(b, 0, { type: "paragraph", text: `**${title.trim()}**` });
      break;
    }
  }
  return changed;
}

/** A list's kind given as `style`, `list_type` or `kind` ("numbered", "bullet"…) as its `ordered`; true when changed. */
function listKind(block: Block): boolean {
  let changed = false;
  for (const key of ["style", "list_type", "listType", "kind"]) {
    const value = block[key];
    if (typeof value !== "string") continue;
    const kind = loose(value);
    const ordered = /^(ordered|numbered|numbers?|decimal|ol|steps?)$/.test(kind) ? true : /^(unordered|bullets?|bulleted|disc|ul|dots?)$/.test(kind) ? false : undefined;
    if (ordered === undefined) continue;
    if (block.ordered === undefined) block.ordered = ordered;
    delete block[key];
    changed = true;
  }
  return changed;
}

/** Removes the `null`s of a section's blocks or a list's items (nested ones too): they say nothing; true when it did. */
function withoutNulls(items: unknown[]): boolean {
  const kept = items.filter((item) => item !== null);
  let changed = kept.length < items.length;
  if (changed) items.splice(0, items.length, ...kept);
  for (const item of items) if (isBlock(item) && Array.isArray(item.items)) changed = withoutNulls(item.items) || changed;
  return changed;
}

/** List items given as numbers (years, amounts) as their text, nested items too; true when changed. */
function numbersAsText(items: unknown[]): boolean {
  let changed = false;
  for (const [i, item] of items.entries()) {
    if (typeof item === "number") {
      items[i] = String(item);
      changed = true;
    } else if (isBlock(item) && Array.isArray(item.items)) changed = numbersAsText(item.items) || changed;
  }
  return changed;
}

/**
 * A table's rows written as objects keyed by column (`{"Name": "Ada", "Score": 3}`) as arrays in the
 * columns' order ({@link cellsOf}); a null cell as an empty one. `field` names the table.
 */
function repairRows(table: Block, field: string): boolean {
  const rows = table.rows as unknown[];
  const headers = Array.isArray(table.columns) ? table.columns.map((c) => (typeof c === "string" ? c : isBlock(c) && typeof c.header === "string" ? c.header : undefined)) : [];
  let changed = false;
  for (const [r, row] of rows.entries()) {
    if (isBlock(row)) {
      rows[r] = cellsOf(row, headers, `${field}.rows[${r}]`);
      changed = true;
    }
    const cells = rows[r];
    if (!Array.isArray(cells)) continue;
    for (const [c, cell] of cells.entries()) {
      if (cell !== null && cell !== undefined) continue;
      cells[c] = "";
      changed = true;
    }
  }
  return changed;
}

interface Alias {
  type: "paragraph" | "list" | "quote" | "code";
  heading?: true;
  rule?: true;
  ordered?: boolean;
}

const heading: Alias = { type: "paragraph", heading: true };
const paragraph: Alias = { type: "paragraph" };
const rule: Alias = { type: "paragraph", rule: true };
const bullets: Alias = { type: "list", ordered: false };
const numbers: Alias = { type: "list", ordered: true };
const quote: Alias = { type: "quote" };
const code: Alias = { type: "code" };

/**
 * Block types of other document models, by their {@link loose} name (no key is a type of the schema's).
 * Maps, not objects: a type a model writes is any string (`toString`, `__proto__`).
 */
const TYPES = new Map<string, Alias>(
  Object.entries({
    heading,
    header: heading,
    title: heading,
    subtitle: heading,
    subheading: heading,
    sectionheading: heading,
    h1: heading,
    h2: heading,
    h3: heading,
    h4: heading,
    h5: heading,
    h6: heading,
    text: paragraph,
    markdown: paragraph,
    body: paragraph,
    para: paragraph,
    p: paragraph,
    divider: rule,
    hr: rule,
    horizontalrule: rule,
    rule,
    separator: rule,
    bullet: bullets,
    bulleted: bullets,
    bulletlist: bullets,
    bulletedlist: bullets,
    bullets,
    unorderedlist: bullets,
    ul: bullets,
    numbered: numbers,
    steps: numbers,
    numberedlist: numbers,
    orderedlist: numbers,
    ol: numbers,
    // Boxes of other document models: set off as a quote is.
    blockquote: quote,
    callout: quote,
    note: quote,
    tip: quote,
    info: quote,
    warning: quote,
    caution: quote,
    important: quote,
    aside: quote,
    codeblock: code,
    pre: code,
    snippet: code,
  }),
);

/** Other names for a block's keys, by the block's type: [written, the schema's]. */
const KEYS = new Map<string, [string, string][]>(
  Object.entries({
    paragraph: [
      ["content", "text"],
      ["value", "text"],
    ],
    list: [
      ["bullets", "items"],
      ["entries", "items"],
      ["points", "items"],
    ],
    table: [
      ["headers", "columns"],
      ["header", "columns"],
      ["data", "rows"],
      ["body", "rows"],
    ],
    quote: [
      ["content", "text"],
      ["author", "attribution"],
      ["source", "attribution"],
    ],
    code: [
      ["content", "text"],
      ["code", "text"],
      ["lang", "language"],
    ],
    image: [
      ["src", "url"],
      ["href", "url"],
      ["alt_text", "alt"],
      ["altText", "alt"],
    ],
  }),
);

/** Moves `block[from]` to `block[to]` when only the first is there; true when it did. */
function rename(block: Block, from: string, to: string): boolean {
  if (!Object.hasOwn(block, from) || Object.hasOwn(block, to)) return false;
  block[to] = block[from];
  delete block[from];
  return true;
}

const isBlock = (value: unknown): value is Block => value !== null && typeof value === "object" && !Array.isArray(value);
const loose = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");
