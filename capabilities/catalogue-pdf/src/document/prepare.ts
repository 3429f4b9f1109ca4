import { formatCount, ToolError } from "@selu-catalogue/kit";
import { PDF_LIMITS as L } from "../limits.js";
import { fontKeyFor, type FontKey } from "../render/fonts.js";
import { hasRightToLeft, mostlyRightToLeft } from "../text/direction.js";
import { describeMissing, missingGlyphs, type GlyphSource, type MissingGlyph } from "./glyph-coverage.js";
import { parseInline, plainText, type Run } from "./inline.js";
import { NUMBER as NUMBER_CELL } from "./numbers.js";
import { colouredEmoji } from "./emoji-colours.js";
import { nestWrittenItems, paragraphBlocks, type MarkdownBlock } from "./markdown-blocks.js";
import type { Block, CreateDocumentArgs, ContentItem, ListItem } from "./schema.js";

export interface PreparedListItem {
  runs: Run[];
  items: PreparedListItem[];
  /** The item's own number as written ("4.", "2.1"), drawn as its marker instead of the list's count. */
  marker?: string;
}

export type ImageSource = { attachmentIndex: number } | { url: URL };

export type PreparedBlock =
  | { kind: "paragraph"; runs: Run[]; heading?: true }
  | { kind: "list"; ordered: boolean; start: number; items: PreparedListItem[] }
  | { kind: "table"; columns: { header: Run[]; align?: "left" | "center" | "right" }[]; rows: Run[][][]; field: string }
  | { kind: "quote"; runs: Run[]; attribution?: string }
  | { kind: "code"; text: string; language?: string }
  | { kind: "image"; source: ImageSource; caption?: string; alt?: string; width?: number; field: string }
  | { kind: "page_break" }
  | { kind: "rule" };

export interface PreparedSection {
  /** Absent for a section of text without a heading (a letter's body): no outline or contents entry. */
  heading?: string;
  blocks: PreparedBlock[];
}

/** A document checked and normalised: every string NFC, every glyph present in its font, every reference valid. */
export interface PreparedDocument {
  title: string;
  subtitle?: string;
  byline?: string;
  header?: string;
  footer?: string;
  sections: PreparedSection[];
  imageCount: number;
  /** Without a `language`: whether most of its letters are right-to-left ones (lists and tables are then mirrored). */
  rightToLeft?: boolean;
}

/**
 * Checks what the schema can't (list depth, row widths, image references, total size, glyph coverage)
 * and turns the arguments into the renderer's model. Errors name the field, as in
 * `sections[1].content[3]: the table has 3 columns, but rows[2] has 4`. What `fonts` answers is
 * remembered for the next document given the same object (as `coverage()` is): it must not change.
 */
export function prepareDocument(args: CreateDocumentArgs, fonts: Readonly<Record<FontKey, GlyphSource>>): PreparedDocument {
  // Without a language, the text says which way the document runs: what it is counted from is kept.
  const p = new Preparer(fonts, args.attachments?.length ?? 0, args.language === undefined);
  const byline = [args.author, args.date]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(" · ");
  const doc: PreparedDocument = {
    title: p.plain(args.title, "title", ["bold"]),
    ...(given(args.subtitle) ? { subtitle: p.plain(args.subtitle, "subtitle", ["regular"]) } : {}),
    ...(byline ? { byline: p.plain(byline, given(args.author) ? "author" : "date", ["regular"]) } : {}),
    ...(given(args.header) ? { header: p.plain(args.header, "header", ["regular"]) } : {}),
    ...(given(args.footer) ? { footer: p.plain(args.footer, "footer", ["regular"]) } : {}),
    sections: args.sections.map((section, s) => {
      if (section.content === undefined) throw new ToolError(`sections[${s}]: has no content; give its text as \`content\`, a list of blocks or one string`);
      return {
        // Headings appear bold in the text and regular in the table of contents.
        ...(section.heading !== undefined ? { heading: p.plain(section.heading, `sections[${s}].heading`, ["bold", "regular"]) } : {}),
        blocks: contentBlocks(section.content, `sections[${s}].content`).flatMap(([block, field, fromText]) => p.block(block, field, fromText)),
      };
    }),
    imageCount: 0,
  };
  // A page break with nothing after it would end the document with a blank page (models often close
  // every section with one).
  const last = doc.sections.at(-1)!.blocks;
  while (last.at(-1)?.kind === "page_break") last.pop();
  for (const m of [args.subject, ...(args.keywords ?? [])]) if (m) p.count(m);
  doc.imageCount = p.images;
  p.finish();
  if (p.texts && p.texts.some(hasRightToLeft)) doc.rightToLeft = mostlyRightToLeft(p.texts);
  return doc;
}

const VISIBLE = /[^\s\p{Cf}]/u;

const itemText = (item: ListItem): string => (typeof item === "string" ? item : item.text);

const BULLET = /^[ \t]*[-*+•◦▪–][ \t]+(?=\S)/;
const NUMBER = /^[ \t]*(\d{1,4})[.)][ \t]+(?=\S)/;
// A clause's number ("2.1", "4.", "3.2.1)"), as contracts and minutes number their items.
const LABEL = /^[ \t]*(\d{1,4}(?:\.\d{1,4})*[.)]?)[ \t]+(?=\S)/;

/**
 * Items that all begin with a marker of their own, as a model writes them into a list block ("1. First",
 * "2) Second"; "- a", "• b"; "2.1 Scope"): their texts without it, so no marker is drawn twice. Numbers
 * that count on by one (from `start`) are the list's own; numbered items in a bullet list make it a
 * numbered one (unless `keepOrdered`: a nested level follows its list). Numbers that don't count on by one
 * ("4.", "7.", "12."; "2.1", "2.2") are each item's `markers`, drawn as written: renumbered, a contract's
 * clauses and a date's day ("31. März") would change. Undefined when not every item has one.
 */
function ownMarkers(texts: readonly string[], ordered: boolean, keepOrdered = false): { texts: string[]; ordered: boolean; start: number; markers?: string[] } | undefined {
  if (texts.length === 0) return undefined;
  const numbers = texts.map((text) => NUMBER.exec(text));
  if (numbers.every((m, i) => m && Number(m[1]) === Number(numbers[0]![1]) + i) && (ordered || !keepOrdered)) {
    return { texts: texts.map((text, i) => text.slice(numbers[i]![0].length)), ordered: true, start: Number(numbers[0]![1]) };
  }
  const labels = texts.map((text) => LABEL.exec(text));
  if (labels.every((m) => m && (m[1]!.includes(".") || m[1]!.endsWith(")")))) {
    return { texts: texts.map((text, i) => text.slice(labels[i]![0].length)), ordered: true, start: 1, markers: labels.map((m) => m![1]!) };
  }
  if (!ordered && texts.every((text) => BULLET.test(text))) return { texts: texts.map((text) => text.replace(BULLET, "")), ordered: false, start: 1 };
  return undefined;
}

/** A task list item's `[ ]` or `[x]` as the box it stands for: ☐ open, ☑ done. */
function checkbox(text: string): string {
  const box = TASK.exec(text);
  return box ? `${box[1] === " " ? "☐" : "☑"} ${text.slice(box[0].length)}` : text;
}

const TASK = /^\s*\[([ xX])\][ \t]+/;

/** Optional text that says something (a blank subtitle, caption or footer is taken as left out). */
function given(text: string | undefined): text is string {
  return text !== undefined && /\S/.test(text);
}

/**
 * A section's content as blocks, each with the field it came from and whether it was read from text
 * (a paragraph's markdown: its field is that text's, as the model wrote it); paragraphs as they are meant
 * ({@link paragraphBlocks}).
 */
function contentBlocks(content: string | ContentItem[], field: string): [MarkdownBlock, string, boolean][] {
  if (typeof content === "string") return paragraphBlocks(pasted(content), field).map((block) => [block, field, true]);
  return content.flatMap((item, b): [MarkdownBlock, string, boolean][] => {
    const at = `${field}[${b}]`;
    if (typeof item === "string") return paragraphBlocks(pasted(item), at).map((block) => [block, at, true]);
    if (item.type === "paragraph") return paragraphBlocks(pasted(item.text), `${at}.text`).map((block) => [block, `${at}.text`, true]);
    return [[item, at, false]];
  });
}

/** Code points whose answer a {@link remembered} source keeps; past this it starts afresh. */
const MAX_REMEMBERED = 1_024;

/** The faces of a `fonts` argument as {@link remembered} sources, kept for the next document given the same object. */
const rememberedFaces = new WeakMap<object, Readonly<Record<FontKey, GlyphSource>>>();

function rememberedAll(fonts: Readonly<Record<FontKey, GlyphSource>>): Readonly<Record<FontKey, GlyphSource>> {
  let faces = rememberedFaces.get(fonts);
  if (!faces) {
    faces = Object.fromEntries(Object.entries(fonts).map(([face, source]) => [face, remembered(source)])) as Record<FontKey, GlyphSource>;
    rememberedFaces.set(fonts, faces);
  }
  return faces;
}

/**
 * A glyph source that asks `source` about each code point once, across documents (a face's glyphs don't
 * change; a letter asks about the same few dozen characters every time).
 */
function remembered(source: GlyphSource): GlyphSource {
  let known = new Map<number, boolean>();
  return {
    hasGlyphForCodePoint(codePoint) {
      let has = known.get(codePoint);
      if (has === undefined) {
        has = source.hasGlyphForCodePoint(codePoint);
        if (known.size >= MAX_REMEMBERED) known = new Map();
        known.set(codePoint, has);
      }
      return has;
    },
  };
}

class Preparer {
  images = 0;
  #chars = 0;
  #missing: { field: string; missing: MissingGlyph[] }[] = [];
  readonly #fonts: Readonly<Record<FontKey, GlyphSource>>;
  readonly #attachmentCount: number;
  /** Every text counted, when the document's direction is to be read from them. */
  readonly texts: string[] | undefined;

  constructor(fonts: Readonly<Record<FontKey, GlyphSource>>, attachmentCount: number, keepTexts: boolean) {
    // Each face asked once per character: a table repeats its characters thousands of times, letters each other's.
    this.#fonts = rememberedAll(fonts);
    this.#attachmentCount = attachmentCount;
    this.texts = keepTexts ? [] : undefined;
  }

  count(text: string): void {
    this.texts?.push(text);
    this.#chars += text.length;
    if (this.#chars > L.maxDocumentChars) {
      throw new ToolError(`the document has more than ${formatCount(L.maxDocumentChars)} characters of text; split it into several documents`);
    }
  }

  /**
   * Text set in one style (titles, headings, captions, header, footer). Models often write markdown there
   * too ("**Summary**"): the markers are dropped rather than printed.
   */
  plain(text: string, field: string, faces: FontKey[]): string {
    // One line: a title, heading, header or footer is drawn (and a heading listed in the contents) as
    // one, so a line break in it (`<br>` included) is a space.
    // A markdown heading's `#`s are dropped as other markers are ("## 1. Intro").
    const normalised = plainText(normalise(text).replace(/^[ \t]*#{1,6}[ \t]+/, "")).replace(/\s*\n\s*/g, " ");
    // Joiners and other format characters alone draw nothing: a title of them would be an empty one.
    if (!VISIBLE.test(normalised)) throw new ToolError(`${field}: has no text once its markup is read (${JSON.stringify(text.slice(0, 40))}); write the words themselves`);
    this.count(normalised);
    for (const face of faces) this.#check(normalised, face, field);
    return normalised;
  }

  /** Text with inline markup; `base` styles every run (quotes are italic). */
  runs(text: string, field: Field, base?: Partial<Pick<Run, "bold" | "italic">>): Run[] {
    const normalised = normalise(text).replaceAll("\t", " ");
    this.count(normalised);
    // The runs are parseInline's own, fresh: styled in place rather than copied.
    const runs = colouredEmoji(parseInline(normalised));
    for (let i = 0; i < runs.length; i++) {
      const run = runs[i]!;
      if (base?.bold) run.bold = true;
      if (base?.italic) run.italic = true;
      this.#check(run.text, fontKeyFor(run), field);
    }
    return runs;
  }

  /** One block at `field`; one read from text (`fromText`) names that text for all of it. */
  block(block: MarkdownBlock, field: string, fromText = false): PreparedBlock {
    // Where a part of the block is: its own field, or the text it was read from.
    const at = (part: string) => (fromText ? field : `${field}${part}`);
    switch (block.type) {
      case "paragraph":
        return { kind: "paragraph", runs: this.runs(block.text, at(".text")), ...("heading" in block ? { heading: true } : {}) };
      case "list": {
        let total = 0;
        // An item's own list lines ("Phase 1\n  - design") are its nested items.
        const written = nestWrittenItems(block.items);
        // Items that carry the markers the list will draw ("1. First", "- a") lose them, once.
        const top = ownMarkers(written.map(itemText), block.ordered ?? false);
        const ordered = top?.ordered ?? block.ordered ?? false;
        const items = (list: ListItem[], where: string, depth: number): PreparedListItem[] => {
          if (depth > L.maxListDepth) throw new ToolError(`${where}: lists nest at most ${L.maxListDepth} levels deep`);
          if (depth > 1) list = nestWrittenItems(list);
          const own = depth === 1 ? top : ownMarkers(list.map(itemText), ordered, true);
          const texts = own?.texts ?? list.map(itemText);
          const marker = (i: number) => (own?.markers ? { marker: own.markers[i]! } : {});
          return list.map((item, i) => {
            total += 1;
            if (total > L.maxListItems) {
              throw new ToolError(
                fromText
                  ? `${field}: a list in this text has more than ${L.maxListItems} items, nested ones included; split it into several lists`
                  : `${field}.items: a list has at most ${L.maxListItems} items, nested ones included`,
              );
            }
            const here = fromText ? field : `${where}[${i}]`;
            if (typeof item === "string") return { runs: this.runs(checkbox(texts[i]!), here), items: [], ...marker(i) };
            return {
              runs: this.runs(checkbox(texts[i]!), fromText ? here : `${here}.text`),
              items: items(item.items ?? [], fromText ? here : `${here}.items`, depth + 1),
              ...marker(i),
            };
          });
        };
        return { kind: "list", ordered, start: block.start ?? top?.start ?? 1, items: items(written, at(".items"), 1) };
      }
      case "table": {
        const width = block.columns.length;
        const long = block.rows.flatMap((row, r) => (row.length > width ? [`rows[${r}] has ${row.length}`] : []));
        if (long.length > 0) {
          const named = long.length > 5 ? `${long.slice(0, 5).join(", ")} and ${long.length - 5} more rows have more` : long.join(", ");
          throw new ToolError(`${field}: the table has ${width} column${width === 1 ? "" : "s"}, but ${named}; give each row one string per column, or add columns for the extra cells`);
        }
        const rows = block.rows.map((row, r) =>
          // A cell's field is named only if it has something to report (a table has thousands of cells).
          filledRow(row, width).map((cell, c) => this.runs(cell, () => at(`.rows[${r}][${c}]`))),
        );
        const columns = block.columns.map((col, c) => ({
          header: this.runs(col.header, at(`.columns[${c}].header`), { bold: true }),
          ...(col.align ? { align: col.align } : {}),
        }));
        return { kind: "table", columns, rows, field };
      }
      case "quote":
        return {
          kind: "quote",
          runs: this.runs(block.text, at(".text"), { italic: true }),
          ...(given(block.attribution) ? { attribution: this.plain(block.attribution, at(".attribution"), ["regular"]) } : {}),
        };
      case "code": {
        const text = normalise(block.text).replaceAll("\t", "    ").replace(/\n+$/, "");
        this.count(text);
        this.#check(text, "mono", at(".text"));
        const language = given(block.language) ? normalise(block.language).trim() : undefined;
        if (language) this.#check(language, "regular", at(".language"));
        return { kind: "code", text, ...(language ? { language } : {}) };
      }
      case "image": {
        this.images += 1;
        if (this.images > L.maxImages) throw new ToolError(`${field}: a document has at most ${L.maxImages} images`);
        const caption = given(block.caption) ? this.plain(block.caption, `${field}.caption`, ["italic"]) : undefined;
        // The alt text is not drawn (no glyph check), only stored in the structure tree.
        const alt = given(block.alt) ? normalise(block.alt).trim() : caption;
        return {
          kind: "image",
          source: this.#imageSource(block, field),
          ...(caption ? { caption } : {}),
          ...(alt ? { alt } : {}),
          ...(block.width !== undefined ? { width: block.width } : {}),
          field,
        };
      }
      case "page_break":
        return { kind: "page_break" };
      case "rule":
        return { kind: "rule" };
    }
  }

  /** Throws one error naming every field with characters the fonts lack (the first few of them). */
  finish(): void {
    if (this.#missing.length === 0) return;
    const fields = this.#missing.slice(0, 3).map((m) => `${m.field}: ${describeMissing(m.missing)}`);
    if (this.#missing.length > 3) fields.push(`and ${this.#missing.length - 3} more fields`);
    throw new ToolError(
      `the document has characters its fonts can't show (${fields.join("; ")}). ` +
        "Supported: Latin, Greek, Cyrillic, Armenian, Georgian, Arabic (with Persian and Urdu), Hebrew, Syriac, Thaana, N'Ko, Adlam, Devanagari, Bengali, " +
        "Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala, Tibetan, Meetei Mayek, Ol Chiki, Thai, Lao, Khmer, Myanmar, " +
        "Ethiopic, Tifinagh, Vai, Cherokee, Canadian syllabics, Chinese, Japanese, Korean, Yi, emoji and common symbols. " +
        "Remove or transliterate those characters.",
    );
  }

  #check(text: string, face: FontKey, fieldOrName: Field): void {
    const missing = missingGlyphs(text, this.#fonts[face]);
    if (missing.length === 0) return;
    const field = typeof fieldOrName === "string" ? fieldOrName : fieldOrName();
    const entry = this.#missing.find((m) => m.field === field);
    if (!entry) this.#missing.push({ field, missing });
    else for (const m of missing) if (!entry.missing.some((e) => e.codePoint === m.codePoint)) entry.missing.push(m);
  }

  #imageSource(block: Extract<Block, { type: "image" }>, field: string): ImageSource {
    const hasIndex = block.attachment_index !== undefined;
    if (hasIndex === (block.url !== undefined)) {
      throw new ToolError(`${field}: give exactly one of attachment_index (a PNG or JPEG in attachments) or url (https)`);
    }
    if (hasIndex) {
      const index = block.attachment_index!;
      if (index >= this.#attachmentCount) {
        throw new ToolError(
          `${field}.attachment_index: is ${index}, but ${this.#attachmentCount === 0 ? "no files are attached" : `attachments has ${this.#attachmentCount} file(s) (indexes start at 0)`}`,
        );
      }
      return { attachmentIndex: index };
    }
    let url: URL;
    try {
      url = new URL(block.url!);
    } catch {
      throw new ToolError(`${field}.url: is not a URL; expected https://…`);
    }
    if (url.protocol !== "https:") throw new ToolError(`${field}.url: only https URLs can be fetched, got ${url.protocol.replace(":", "")}`);
    return { url };
  }
}

/** Where a text is in the arguments, as in `sections[0].content[1].text`, or a function that names it. */
type Field = string | (() => string);

/** NFC (so decomposed diacritics meet the fonts' precomposed glyphs), then {@link pasted}. */
function normalise(text: string): string {
  return pasted(text.normalize("NFC"));
}

/**
 * Pasted text as it is meant. Line breaks as `\n`: pasted text (pdftotext's output, a word processor's)
 * may break lines, pages and paragraphs with CR LF, form feeds and Unicode's separators, read as the line
 * break or blank line they stand for. No U+FEFF: the byte order mark a pasted file or CSV export starts
 * with, invisible, yet white space to JavaScript's `\s` (a heading line starting with one was no heading)
 * and once read as a right-to-left letter (the word after it came out backwards). No other control
 * characters, nor the colour codes of pasted terminal output (`ESC[31m`): no font draws them, and one
 * refused the whole document. Letters of Unicode's mathematical alphabets ("𝐁𝐨𝐥𝐝", "𝑥", the "fancy
 * text" of social media) as the letters they are styled from, which the fonts have. Before a paragraph is
 * read for markdown blocks too, which go by lines.
 */
function pasted(text: string): string {
  if (!UNPASTED.test(text)) return text;
  return text
    .replace(TERMINAL_CODES, "")
    .replace(CONTROLS, "")
    .replace(MATH_LETTERS, (letter) => letter.normalize("NFKC"))
    .replace(/\r\n?/g, "\n")
    .replace(/[\f\u2029]/g, "\n\n")
    .replace(/[\v\u2028]/g, "\n");
}

const UNPASTED = /[\0-\x08\v-\x1f\x7f-\x9f\u2028\u2029\uFEFF\u{1D400}-\u{1D7FF}]/u;
// ECMA-48's control sequences (CSI): ESC [, parameters, intermediates, a final byte.
const TERMINAL_CODES = /\x1b\[[0-?]*[ -/]*[@-~]/g;
// C0 and C1 controls but tab, line feed, vertical tab, form feed and carriage return (read above), and U+FEFF.
const CONTROLS = /[\0-\x08\x0e-\x1f\x7f-\x9f\uFEFF]/g;
const MATH_LETTERS = /[\u{1D400}-\u{1D7FF}]/gu;

/**
 * A row short of the table's `width` cells made whole with empty ones: at its end, but for a row of two or
 * more that ends in a number (a total, `["Subtotal", "€1,800.00"]`), whose number goes under the last
 * column, where the amounts above it are.
 */
function filledRow<T>(row: readonly (T | string)[], width: number): (T | string)[] {
  if (row.length >= width) return [...row];
  const empty = Array.from({ length: width - row.length }, () => "");
  const last = row.at(-1);
  if (row.length >= 2 && NUMBER_CELL.test(String(last).trim())) return [...row.slice(0, -1), ...empty, last!];
  return [...row, ...empty];
}
