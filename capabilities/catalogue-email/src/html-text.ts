/** HTML beyond this is not converted (the text is cut there): conversion time and memory grow with it. */
const MAX_HTML_CHARS = 256 * 1024;

/** Past this many tags the input is no ordinary mail body: strip the tags instead of parsing them. */
const MAX_TAGS = 10_000;

/**
 * Turns an HTML mail body into readable plain text (links kept as "text [url]", images dropped). The
 * HTML comes from whoever sent the mail, so the conversion is bounded: at most MAX_HTML_CHARS are read,
 * nesting deeper than 40 levels and runs of over 2,000 children are skipped (deep nesting otherwise
 * overflows the stack or exhausts the heap), HTML with more than MAX_TAGS tags (parsing time grows with
 * them) and a conversion that still fails fall back to stripping tags.
 */
export async function htmlToText(html: string): Promise<string> {
  // Loaded on first use: most calls never see HTML-only mail.
  const { convert } = await import("html-to-text");
  const input = html.length > MAX_HTML_CHARS ? html.slice(0, MAX_HTML_CHARS) : html;
  if (countTags(input) > MAX_TAGS) return stripTags(input);
  try {
    const text = convert(input, {
      wordwrap: false,
      limits: { maxDepth: 40, maxChildNodes: 2_000, ellipsis: "…" }, // the input is already cut to MAX_HTML_CHARS
      selectors: [
        { selector: "img", format: "skip" },
        { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
      ],
    }).trim();
    // Everything sat deeper than maxDepth: the tags' text is better than nothing.
    return /[\p{L}\p{N}]/u.test(text) ? text : stripTags(input);
  } catch {
    return stripTags(input);
  }
}

function countTags(html: string): number {
  let count = 0;
  for (let at = html.indexOf("<"); at !== -1 && count <= MAX_TAGS; at = html.indexOf("<", at + 1)) count++;
  return count;
}

function stripTags(html: string): string {
  return html
    .replace(/<(script|style)\b[^>]*>[^<]*<\/\1>/gi, " ")
    .replace(/<[^>]{0,2000}>/g, " ")
    .replace(/<[^>]*$/, "")
    .replace(/&nbsp;/g, " ")
    .replace(/[ \t]+/g, " ")
    .trim();
}
