import type { z } from "zod";

/**
 * Puts option values a model wrote in another case or spelling into the schema's own ("a4" for "A4",
 * "Landscape", `"type": "Paragraph"`, "page break" for "page_break"), guided by the issues of a failed
 * parse: each enum or literal value, and each discriminator of a union, the value fit none of. A value
 * is replaced only when exactly one option matches it ignoring case, spaces, hyphens and underscores.
 * Mutates `value` (freshly parsed arguments) in place; true when it changed anything, so the caller
 * parses again. Runs only after a failed parse: a valid call pays nothing.
 */
export function fixOptionCase(issues: readonly z.core.$ZodIssue[], value: Record<string, unknown>): boolean {
  let changed = false;
  for (const { path, options } of optionIssues(issues, [])) {
    const parent = at(value, path.slice(0, -1));
    const key = path.at(-1);
    if (parent === undefined || key === undefined || typeof key === "symbol") continue;
    const written = (parent as Record<PropertyKey, unknown>)[key];
    if (typeof written !== "string") continue;
    const matches = options.filter((option): option is string => typeof option === "string" && loose(option) === loose(written));
    if (matches.length !== 1 || matches[0] === written) continue;
    (parent as Record<PropertyKey, unknown>)[key] = matches[0];
    changed = true;
  }
  return changed;
}

interface OptionIssue {
  path: readonly PropertyKey[];
  options: readonly unknown[];
}

/** Every enum/literal mismatch and unmatched discriminator, at its full path, through unions' branches. */
function optionIssues(issues: readonly z.core.$ZodIssue[], base: readonly PropertyKey[], found: OptionIssue[] = []): OptionIssue[] {
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === "invalid_value") found.push({ path, options: issue.values });
    else if (issue.code === "invalid_union") {
      const { discriminator, options } = issue as { discriminator?: string; options?: unknown[] };
      if (discriminator !== undefined && Array.isArray(options)) found.push({ path, options });
      for (const branch of issue.errors) optionIssues(branch, path, found);
    }
  }
  return found;
}

function at(value: unknown, path: readonly PropertyKey[]): object | undefined {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current !== null && typeof current === "object" ? current : undefined;
}

const loose = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");
