/**
 * The English display name of a tool, as Selu's UI and MCP clients show it: `create_pdf_document` →
 * "Create PDF document". The registry's agent strings and the MCP tool titles both come from here, so a
 * tool has one name wherever it appears.
 */
export function displayName(name: string, casing: ReadonlyMap<string, string>): string {
  const words = name
    .split(/[_-]+/)
    .filter(Boolean)
    .map((w) => casing.get(w.toLowerCase()) ?? w.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Acronyms as the prose writes them (PDF, PDFs, IMAP, URL), keyed by their lower-case form: the casing a
 * display name keeps. Only short all-capital words count: "IMAP SEARCH" names a command, it doesn't make
 * "search" an acronym.
 */
export function wordCasing(prose: string): Map<string, string> {
  const casing = new Map<string, string>();
  for (const match of prose.matchAll(/(?<=[\s(“"'])([A-Za-z][A-Za-z0-9]*)(?=[\s.,;:)”"'])/g)) {
    const word = match[1]!;
    if (/^[A-Z][A-Z0-9]{1,4}s?$/.test(word) && !casing.has(word.toLowerCase())) casing.set(word.toLowerCase(), word);
  }
  return casing;
}

/** Each tool's display name, with the casing its capability's tool descriptions use. */
export function toolDisplayNames(tools: readonly { name: string; description: string }[]): Map<string, string> {
  const casing = wordCasing(tools.map((t) => t.description).join("\n"));
  return new Map(tools.map((t) => [t.name, displayName(t.name, casing)]));
}
