/** A stretch of text with one style. */
export interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  code: boolean;
  /** Target of a link (https, http or mailto). */
  link?: string;
}

// Bounded, and tried only where "](" follows within reach: an unbounded scan from every "[" is
// quadratic (a 20,000-character run of "[" took most of a second).
const LINK_TEXT_MAX = 500;
const LINK = new RegExp(`^\\[([^\\]\\n]{1,${LINK_TEXT_MAX}})\\]\\(((?:https?:\\/\\/|mailto:)[^\\s)]{1,2000})\\)`);

/**
 * Parses the inline markup of paragraphs, list items, quotes and cells: `**bold**`, `*italic*`,
 * `` `code` ``, `[text](https://…)` and `\` to escape a marker. A marker without its closing partner is
 * kept as text, so ordinary prose with a lone asterisk renders as written.
 *
 * @example
 * parseInline("a **b** `c`") // [{text:"a "}, {text:"b", bold}, {text:" "}, {text:"c", code}]
 */
export function parseInline(source: string): Run[] {
  const runs: Run[] = [];
  let bold = false;
  let italic = false;
  let buffer = "";
  const flush = () => {
    if (buffer) runs.push({ text: buffer, bold, italic, code: false });
    buffer = "";
  };
  let close = 0; // the next "](" after the current "[" (-1: none left), found once per position, not per "["
  for (let i = 0; i < source.length; ) {
    const ch = source[i]!;
    if (ch === "\\" && i + 1 < source.length && /[\\*`[\]()]/.test(source[i + 1]!)) {
      buffer += source[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const end = source.indexOf("`", i + 1);
      if (end > i + 1) {
        flush();
        runs.push({ text: source.slice(i + 1, end), bold, italic, code: true });
        i = end + 1;
        continue;
      }
    }
    if (ch === "[") {
      if (close !== -1 && close <= i) close = source.indexOf("](", i + 1);
      const match = close !== -1 && close - i <= LINK_TEXT_MAX + 1 ? LINK.exec(source.slice(i, close + 2 + 2_001)) : null;
      if (match) {
        flush();
        runs.push({ text: match[1]!, bold, italic, code: false, link: match[2]! });
        i += match[0].length;
        continue;
      }
    }
    if (source.startsWith("**", i) && (bold || closes(source, i + 2, "**"))) {
      flush();
      bold = !bold;
      i += 2;
      continue;
    }
    if (ch === "*" && (italic || closes(source, i + 1, "*"))) {
      flush();
      italic = !italic;
      i += 1;
      continue;
    }
    buffer += ch;
    i += 1;
  }
  flush();
  return merge(runs);
}

/** The text without markup (for measuring and for the table of contents). */
export function plainText(source: string): string {
  return parseInline(source)
    .map((r) => r.text)
    .join("");
}

// An opening marker counts only if a closing one follows and the marked text does not start with a space
// ("2 * 3 * 4" stays as written).
function closes(source: string, from: number, marker: string): boolean {
  if (from >= source.length || /\s/.test(source[from]!)) return false;
  let at = source.indexOf(marker, from);
  // A single "*" must not match half of a "**".
  while (marker === "*" && at !== -1 && source[at + 1] === "*") at = source.indexOf(marker, at + 2);
  return at > from;
}

function merge(runs: Run[]): Run[] {
  const out: Run[] = [];
  for (const run of runs) {
    const last = out.at(-1);
    if (last && !last.link && !run.link && last.bold === run.bold && last.italic === run.italic && last.code === run.code) {
      last.text += run.text;
    } else out.push({ ...run });
  }
  return out;
}
