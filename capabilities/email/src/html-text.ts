/** Turns an HTML mail body into readable plain text (links kept as "text [url]", images dropped). */
export async function htmlToText(html: string): Promise<string> {
  // Loaded on first use: most calls never see HTML-only mail.
  const { convert } = await import("html-to-text");
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: "img", format: "skip" },
      { selector: "a", options: { hideLinkHrefIfSameAsText: true } },
    ],
  }).trim();
}
