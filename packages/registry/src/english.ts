import { displayName, toolDisplayNames, wordCasing } from "@selu-catalogue/kit";
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
  // Tool names from the tool descriptions alone, as the MCP transport titles them at run time.
  const displayNames = toolDisplayNames(source.tools);
  const longDescription = firstParagraph(source.readme);
  const tools: AgentStrings["tools"] = {};
  for (const tool of source.tools) {
    const label = displayNames.get(tool.name)!;
    tools[tool.name] = {
      display_name: label,
      description: tool.description,
      input: inputDescriptions(tool.input_schema),
      ...(tool.recommended_policy === "ask" ? { approval: { label, message: firstSentence(tool.description) } } : {}),
    };
  }
  const credentials: AgentStrings["credentials"] = {};
  for (const c of manifest.credentials) credentials[c.name] = c.description.trim() || c.name;
  return {
    agent: {
      // The id's catalogue- prefix keeps ids apart in Selu; people see the name without it.
      name: source.displayName ?? displayName(source.dirName.startsWith(CATALOGUE_ID_PREFIX) ? source.dirName.slice(CATALOGUE_ID_PREFIX.length) : source.dirName, casing),
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
