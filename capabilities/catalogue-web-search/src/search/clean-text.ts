const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'", "#x27": "'" };

/**
 * Plain text from a provider's snippet: Brave marks matches with `<strong>`, SearXNG passes engines'
 * HTML fragments through. Tags go, the common entities are decoded, whitespace collapses, and the text
 * is cut to `max` characters (with an ellipsis) so one result can't crowd out the others.
 */
export function cleanText(value: string | undefined, max: number): string {
  if (!value) return "";
  const text = value
    .replace(/<[^>]{0,500}>/g, "")
    .replace(/&(#\d{1,6}|#x[0-9a-f]{1,6}|[a-z]{2,6});/gi, (whole, name: string) => {
      const lower = name.toLowerCase();
      if (ENTITIES[lower]) return ENTITIES[lower];
      const code = lower.startsWith("#x") ? parseInt(lower.slice(2), 16) : lower.startsWith("#") ? Number(lower.slice(1)) : NaN;
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, " ")
    .trim();
  return cut(text, max);
}

/** `text` cut to at most `max` characters, never inside a surrogate pair, with "…" when cut. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** The host of a URL without `www.`, as a result's source when the provider names none. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return "";
  }
}
