/** An href resolved against the page's base: an absolute http(s) URL, or undefined (javascript:, data:, junk). */
export function resolveLink(href: string | null | undefined, base: URL): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
