// What models write for create_pdf_document's blocks in another shape than the schema's: block types
// from other document models (a `heading`, a `bullet_list`, a `divider`) and other names for a block's
// keys (a table's `headers`, an image's `src`). In Selu an argument error can end the user's turn (issue
// 17 item 2), so these are taken as meant: the kit calls this only after a failed parse and parses again,
// so the schema the model sees stays the one source of truth and a valid call pays nothing.

type Block = Record<string, unknown>;

/** Rewrites the blocks of `args.sections[].content` in place; true when it changed anything. */
export function repairDocumentArgs(args: Record<string, unknown>): boolean {
  const { sections } = args;
  if (!Array.isArray(sections)) return false;
  let changed = false;
  for (const section of sections) {
    if (!isBlock(section) || !Array.isArray(section.content)) continue;
    for (const item of section.content) if (isBlock(item)) changed = repairBlock(item) || changed;
  }
  return changed;
}

/** One block: its type by another name first, then its keys by other names. */
function repairBlock(block: Block): boolean {
  let changed = false;
  const type = typeof block.type === "string" ? loose(block.type) : "";
  const as = TYPES[type];
  if (as) {
    changed = true;
    rename(block, "content", "text") || rename(block, "value", "text");
    if (as.type === "paragraph" && typeof block.text === "string") {
      // Written as the markdown a paragraph reads: a heading becomes a bold paragraph, a rule a rule.
      if (as.heading) block.text = `# ${block.text}`;
    }
    if (as.rule) block.text = "---";
    block.type = as.type;
    if (as.ordered !== undefined && block.ordered === undefined) block.ordered = as.ordered;
  }
  for (const [from, to] of KEYS[typeof block.type === "string" ? block.type : ""] ?? []) changed = rename(block, from, to) || changed;
  // "true" and "false" for a list's `ordered`.
  if (block.type === "list" && (block.ordered === "true" || block.ordered === "false")) {
    block.ordered = block.ordered === "true";
    changed = true;
  }
  return changed;
}

interface Alias {
  type: "paragraph" | "list";
  heading?: true;
  rule?: true;
  ordered?: boolean;
}

const heading: Alias = { type: "paragraph", heading: true };
const paragraph: Alias = { type: "paragraph" };
const rule: Alias = { type: "paragraph", rule: true };
const bullets: Alias = { type: "list", ordered: false };
const numbers: Alias = { type: "list", ordered: true };

/** Block types of other document models, by their {@link loose} name (no key is a type of the schema's). */
const TYPES: Record<string, Alias> = {
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
  bulletlist: bullets,
  bulletedlist: bullets,
  bullets,
  unorderedlist: bullets,
  ul: bullets,
  numberedlist: numbers,
  orderedlist: numbers,
  ol: numbers,
};

/** Other names for a block's keys, by the block's type: [written, the schema's]. */
const KEYS: Record<string, [string, string][]> = {
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
};

/** Moves `block[from]` to `block[to]` when only the first is there; true when it did. */
function rename(block: Block, from: string, to: string): boolean {
  if (!(from in block) || to in block) return false;
  block[to] = block[from];
  delete block[from];
  return true;
}

const isBlock = (value: unknown): value is Block => value !== null && typeof value === "object" && !Array.isArray(value);
const loose = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");
