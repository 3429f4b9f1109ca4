import { attachments } from "@selu-catalogue/kit";
import { z } from "zod";
import { PDF_LIMITS as L } from "../limits.js";

// The document model the model writes: sections of typed blocks with a small inline markup. Kept flat and
// explicit (one `type` per block) because that is what LLMs fill in most reliably.

const INLINE = "Inline markup: **bold**, *italic*, `code`, [text](https://link)";

/**
 * Text that must say something: whitespace alone is refused with `fix`, since in Selu a refused call
 * can end the user's turn (issue 17 item 2), and blank text would otherwise render as an empty block.
 */
const nonBlank = (max: number, fix: string) => z.string().max(max).regex(/\S/, `is blank; ${fix}`);

const BLANK_PARAGRAPH = "write the paragraph's text or leave the block out";

const inlineText = (max: number, what: string, fix: string) => nonBlank(max, fix).describe(`${what}. ${INLINE}`);

/**
 * The message of a `string | object` union the value fits neither branch of. When it fits one, the kit
 * reports that branch's own problem at its full path instead.
 */
function explainUnion(expected: string) {
  return (issue: z.core.$ZodRawIssue): string | undefined => (issue.code === "invalid_union" ? expected : undefined);
}

const paragraph = z.object({
  type: z.literal("paragraph"),
  text: inlineText(L.maxBlockChars, "The paragraph's text (a blank line starts a new paragraph; a markdown table or list in it becomes a table or list)", BLANK_PARAGRAPH),
});

interface ListItemInput {
  text: string;
  items?: (string | ListItemInput)[] | undefined;
}

const BLANK_ITEM = "write the item's text or leave the item out";
const listItemText = nonBlank(L.maxItemChars, BLANK_ITEM);

// Nesting is spelt out level by level rather than with a recursive schema: a recursive one needs $ref,
// which not every model provider accepts in tool schemas.
function listItemAt(depth: number): z.ZodType<string | ListItemInput> {
  if (depth >= L.maxListDepth) {
    return z
      .string({ error: `expected a string: lists nest at most ${L.maxListDepth} levels deep` })
      .max(L.maxItemChars)
      .regex(/\S/, `is blank; ${BLANK_ITEM}`);
  }
  return z.union(
    [
      listItemText,
      z
        .object({
          text: listItemText.describe(`The item's text. ${INLINE}`),
          items: z
            .array(listItemAt(depth + 1))
            .min(1)
            .optional()
            .describe("Nested items"),
        })
        .strict(),
    ],
    { error: explainUnion("expected a string or {text, items}") },
  );
}
const listItem = listItemAt(1);

const list = z.object({
  type: z.literal("list"),
  ordered: z.boolean().optional().describe("true for a numbered list (default: bullets)"),
  start: z.number().int().min(0).max(L.maxListStart).optional().describe("A numbered list's first number (default 1), to go on after a code block or a paragraph"),
  items: z.array(listItem).min(1).describe(`Items: a string, or {text, items} for an item with nested items (up to ${L.maxListDepth} levels)`),
});

const columnObject = z
  .object({
    header: z.string().max(L.maxCellChars).describe("Header cell text"),
    align: z.enum(["left", "center", "right"]).optional().describe("Alignment of the column (default: right for a column of numbers, else left)"),
  })
  .strict();

// A header alone (`"columns": ["Name", "Price"]`) and numbers in cells are what models often write: taken as meant.
const column = z.union(
  [
    z
      .string()
      .max(L.maxCellChars)
      .transform((header): z.output<typeof columnObject> => ({ header })),
    columnObject,
  ],
  {
    error: explainUnion("expected a header string or {header, align}"),
  },
);
const cell = z.union([z.string().max(L.maxCellChars), z.number(), z.boolean()], { error: explainUnion("expected a string (or a number)") }).transform(String);

const table = z.object({
  type: z.literal("table"),
  columns: z
    .array(column)
    .min(1, "a table needs at least one column; give each column a header")
    .max(L.maxTableColumns, `a table has at most ${L.maxTableColumns} columns; split it into several tables`)
    .describe("The columns, left to right: a header string, or {header, align}"),
  rows: z.array(z.array(cell)).max(L.maxTableRows).describe("Body rows; each row has one string (or number) per column. The header row repeats on every page"),
});

const quote = z.object({
  type: z.literal("quote"),
  text: inlineText(L.maxBlockChars, "The quoted text", "write the quoted text or leave the block out"),
  attribution: z.string().max(200).optional().describe("Who said it, shown under the quote"),
});

const code = z.object({
  type: z.literal("code"),
  text: nonBlank(L.maxBlockChars, "write the code or leave the block out").describe("Code or preformatted text; whitespace is kept"),
  language: z.string().max(40).optional().describe("Language name, shown above the block"),
});

const image = z.object({
  type: z.literal("image"),
  attachment_index: z.number().int().min(0).optional().describe("Index into `attachments` of a PNG or JPEG file"),
  url: z.string().max(2_000).optional().describe("https URL of a PNG or JPEG image (instead of attachment_index)"),
  caption: z.string().max(500).optional().describe("Caption shown under the image"),
  alt: z.string().max(1_000).optional().describe("What the image shows, for screen readers (default: the caption, else the file's name)"),
  width: z.number().min(0.1).max(1).optional().describe("Width as a fraction of the text width, 0.1 to 1 (default: natural size, at most the text width)"),
});

const pageBreak = z.object({ type: z.literal("page_break") });

const BLOCK_TYPES = "paragraph, list, table, quote, code, image or page_break";

const block = z.discriminatedUnion("type", [paragraph.strict(), list.strict(), table.strict(), quote.strict(), code.strict(), image.strict(), pageBreak.strict()], {
  error: (issue) => (issue.code === "invalid_union" ? `expected ${BLOCK_TYPES}` : undefined),
});

const contentItem = z.union([nonBlank(L.maxBlockChars, BLANK_PARAGRAPH), block], { error: explainUnion(`expected a string or a block of type ${BLOCK_TYPES}`) });

const section = z
  .object({
    heading: nonBlank(300, "give the section a heading, a few words on what it covers").optional().describe("The section's heading (leave it out for text without one: a letter's body, a cover note)"),
    // One string instead of the list is what a model often writes: it is read as paragraphs (issue 17 item 2).
    content: z
      .union([z.array(contentItem).max(L.maxBlocksPerSection), nonBlank(L.maxBlockChars, BLANK_PARAGRAPH)], {
        error: explainUnion(`expected a list of blocks (a string or a block of type ${BLOCK_TYPES}) or one string`),
      })
      // Optional to Selu's check, required here: a section's text under another name (`body`) is taken as
      // meant only once it reaches the tool (document/repair-args.ts); Selu would refuse it first.
      .optional()
      .describe("Blocks in order (required). A plain string is a paragraph; one string instead of the list is read as paragraphs split at blank lines"),
  })
  .strict();

// Any script's letters, digits and symbols (a file name from a Chinese title keeps its Chinese); not path
// separators, characters Windows refuses in names, controls, or invisible and direction-changing format
// characters (which can make a name read as another); no leading dot or space.
const NOT_IN_NAME = '\\u0000-\\u001F\\u007F-\\u009F/\\\\:*?"<>|\\u061C\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u206F\\uFEFF';
// Up to 255 characters here, so that a name too long is refused for its length (in bytes, below).
const PDF_FILENAME = new RegExp(`^[^${NOT_IN_NAME} .][^${NOT_IN_NAME}]{0,250}\\.pdf$`);

// What the pattern can't say to every JSON Schema reader (no Unicode properties there): no invisible
// characters at all (format, default-ignorable, lone surrogates, line and paragraph separators), no
// leading space of any kind.
const INVISIBLE = /[\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|^\p{Zs}/u;
const MAX_NAME_BYTES = 255;

/** A plain file name ending in .pdf: no directories, no leading dot, nothing invisible, at most 255 bytes. */
export const pdfFilename = (example: string) => {
  const plain = `expected a plain file name ending in .pdf, e.g. ${example}`;
  return z
    .string()
    .regex(PDF_FILENAME, plain)
    .refine((name) => !INVISIBLE.test(name), plain)
    .refine((name) => Buffer.byteLength(name) <= MAX_NAME_BYTES, `is longer than ${MAX_NAME_BYTES} bytes in UTF-8, as file systems allow; shorten it`);
};

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/, "expected an ISO 8601 date, e.g. 2026-11-23 or 2026-11-23T14:30:00Z")
  .refine((s) => !Number.isNaN(Date.parse(s)), "is not a real date; expected e.g. 2026-11-23");

/** Arguments of create_pdf_document. */
export const createDocumentInput = z.object({
  title: nonBlank(300, "give the document a title, e.g. the subject in a few words").describe("Document title, shown at the top and stored as metadata"),
  subtitle: z.string().max(300).optional().describe("Shown under the title"),
  author: z.string().max(200).optional().describe("Shown under the title and stored as metadata"),
  date: z.string().max(100).optional().describe("Date line shown under the title, as it should read, e.g. 23 November 2026"),
  subject: z.string().max(500).optional().describe("Metadata: what the document is about"),
  // A blank keyword is left out rather than refused (issue 17 item 2).
  keywords: z.array(z.string().max(100)).max(30).optional().describe("Metadata: keywords"),
  creation_date: isoDate.optional().describe("Metadata: creation date, ISO 8601 (default: now)"),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$/, "expected a language tag such as en, de-CH or el")
    // en_US, as locales are often written, is the tag en-US.
    .transform((tag) => tag.replaceAll("_", "-"))
    .optional()
    .describe("Language of the text as a BCP 47 tag (e.g. en, de-CH), stored in the PDF for screen readers"),
  filename: pdfFilename("report.pdf").optional().describe("File name, e.g. quarterly-report.pdf (default: from the title)"),
  page_size: z.enum(["A4", "Letter"]).optional().describe("Paper size (default A4)"),
  orientation: z.enum(["portrait", "landscape"]).optional().describe("Default portrait (landscape when a table is too wide for portrait pages)"),
  table_of_contents: z.boolean().optional().describe("Add a table of contents after the title (default false)"),
  page_numbers: z.boolean().optional().describe("Page numbers in the footer, as 'Page 2 of 5' (default true)"),
  header: z.string().max(200).optional().describe("Text at the top of every page after the first"),
  footer: z.string().max(200).optional().describe("Text at the bottom of every page, left of the page number"),
  sections: z.array(section).min(1).max(L.maxSections).describe("The document's sections, in order"),
  attachments: attachments({ description: "PNG or JPEG images used by image blocks (attachment_index)", max: L.maxImages }).optional(),
});

export type CreateDocumentArgs = z.output<typeof createDocumentInput>;
export type Section = CreateDocumentArgs["sections"][number];
export type ContentItem = z.output<typeof contentItem>;
export type Block = z.output<typeof block>;
export type ListItem = string | ListItemInput;
