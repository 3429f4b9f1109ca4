import type { Manifest, ToolDescription } from "@selu-catalogue/manifest";

/**
 * Checks a capability README against its code: the `## Tools` table has one row per tool, named in its
 * first column as `` `tool` ``, whose last column is the tool's policy; and the memory limit the manifest
 * sets is stated as "<n> MB". For a capability whose tools are discovered at run time, pass every tool
 * its code may offer as `tools`: each needs a row, and the policy column is not checked (which tools are
 * offered, and so how they are grouped, depends on the settings). Returns each mismatch.
 */
export function checkReadme(readme: string, manifest: Manifest, tools: readonly Pick<ToolDescription, "name" | "recommended_policy">[] = manifest.tools): string[] {
  const problems: string[] = [];
  const dynamic = manifest.tool_source === "dynamic";
  if (tools.length > 0) {
    const rows = toolRows(readme);
    if (rows === undefined) return ["has no `## Tools` section with a table (| tool | inputs | behaviour | side effects | policy |)"];
    for (const tool of tools) {
      const row = rows.get(tool.name);
      if (!row) problems.push(`## Tools: no row for \`${tool.name}\``);
      else if (!dynamic && row.policy !== tool.recommended_policy) problems.push(`## Tools: \`${tool.name}\` says policy ${row.policy}; the code says ${tool.recommended_policy}`);
    }
    for (const name of rows.keys()) if (!tools.some((t) => t.name === name)) problems.push(`## Tools: \`${name}\` is not a tool of the capability`);
  }
  const memory = manifest.resources.max_memory_mb;
  if (!new RegExp(`\\b${memory} MB\\b`).test(readme)) problems.push(`doesn't state the memory limit, ${memory} MB (resources.max_memory_mb)`);
  return problems;
}

function toolRows(readme: string): Map<string, { policy: string }> | undefined {
  const lines = readme.split("\n");
  const start = lines.findIndex((l) => /^## Tools\s*$/.test(l));
  if (start === -1) return undefined;
  const rows = new Map<string, { policy: string }>();
  let seenTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^## /.test(line) || /^### /.test(line)) break;
    if (!line.startsWith("|")) {
      if (seenTable) break;
      continue;
    }
    seenTable = true;
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    const name = /^`([a-z][a-z0-9_]*)`$/.exec(cells[0] ?? "")?.[1];
    if (name) rows.set(name, { policy: cells.at(-1) ?? "" });
  }
  return seenTable ? rows : undefined;
}
