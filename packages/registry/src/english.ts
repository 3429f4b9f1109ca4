import { CATALOGUE_ID_PREFIX } from "@selu-catalogue/manifest";
import type { CapabilitySource } from "./capability-source.js";
import type { AgentStrings } from "./strings-schema.js";

/**
 * The English strings of a capability's agent, all derived from its files: the name from package.json's
 * `displayName` (or the directory name without `catalogue-`), the description from package.json, the
 * long description from the README's first paragraph, tool and input descriptions from the code (the
 * manifest's tools, or for a dynamic capability every tool discovery may offer), display names from tool
 * names, and approval texts from the descriptions of `ask` tools.
 */
export function englishStrings(source: CapabilitySource): AgentStrings {
  const { manifest } = source;
  const casing = wordCasing(`${source.description}\n${source.prompt}\n${source.tools.map((t) => t.description).join("\n")}`);
  const longDescription = firstParagraph(source.readme);
  const tools: AgentStrings["tools"] = {};
  for (const tool of source.tools) {
    const displayName = humanise(tool.name, casing);
    tools[tool.name] = {
      display_name: displayName,
      description: tool.description,
      input: inputDescriptions(tool.input_schema),
      ...(tool.recommended_policy === "ask" ? { approval: { label: displayName, message: firstSentence(tool.description) } } : {}),
    };
  }
  const credentials: AgentStrings["credentials"] = {};
  for (const c of manifest.credentials) credentials[c.name] = c.description.trim() || c.name;
  return {
    agent: {
      // The id's catalogue- prefix keeps ids apart in Selu; people see the name without it.
      name: source.displayName ?? humanise(source.dirName.startsWith(CATALOGUE_ID_PREFIX) ? source.dirName.slice(CATALOGUE_ID_PREFIX.length) : source.dirName, casing),
      description: source.description,
      ...(longDescription ? { long_description: longDescription } : {}),
    },
    tools,
    credentials,
  };
}

/** The descriptions of the top-level input fields (what Selu's UI localises), in schema order. */
export function inputDescriptions(schema: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const properties = (schema as { properties?: unknown } | null)?.properties;
  if (typeof properties !== "object" || properties === null) return out;
  for (const [field, value] of Object.entries(properties)) {
    const description = (value as { description?: unknown } | null)?.description;
    if (typeof description === "string" && description.trim() !== "") out[field] = description.trim();
  }
  return out;
}

/** `create_pdf_document` → "Create PDF document": words keep the casing they have in the prose. */
export function humanise(name: string, casing: ReadonlyMap<string, string>): string {
  const words = name
    .split(/[_-]+/)
    .filter(Boolean)
    .map((w) => casing.get(w.toLowerCase()) ?? w.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Acronyms as the prose writes them (PDF, PDFs, IMAP, URL): the casing a display name should keep. */
function wordCasing(prose: string): Map<string, string> {
  const casing = new Map<string, string>();
  for (const match of prose.matchAll(/(?<=[\s(“"'])([A-Za-z][A-Za-z0-9]*)(?=[\s.,;:)”"'])/g)) {
    const word = match[1]!;
    // Short all-capital words only: "IMAP SEARCH" names a command, it doesn't make "search" an acronym.
    if (/^[A-Z][A-Z0-9]{1,4}s?$/.test(word) && !casing.has(word.toLowerCase())) casing.set(word.toLowerCase(), word);
  }
  return casing;
}

/** The README's first paragraph after its title, as one line (the agent's long description). */
export function firstParagraph(markdown: string): string | undefined {
  const lines = markdown.split("\n");
  let i = lines.findIndex((l) => l.startsWith("# "));
  i = i === -1 ? 0 : i + 1;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const paragraph: string[] = [];
  for (; i < lines.length && lines[i]!.trim() !== "" && !lines[i]!.startsWith("#"); i++) paragraph.push(lines[i]!.trim());
  return paragraph.length > 0 ? paragraph.join(" ") : undefined;
}

function firstSentence(text: string): string {
  const match = /^(.+?[.!?])(\s|$)/s.exec(text.trim());
  return (match ? match[1]! : text.trim()).replace(/\s+/g, " ");
}
