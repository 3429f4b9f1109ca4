import type { z } from "zod";

/** Renders a zod issue path as people write it: `sections[2].rows[0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(arguments)";
}

/** One line per issue: where, and what was expected. At most `max` issues, then a count of the rest. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], max = 5): string {
  const lines = issues.slice(0, max).map((issue) => `${formatPath(issue.path)}: ${describeIssue(issue)}`);
  if (issues.length > max) lines.push(`(${issues.length - max} more)`);
  return lines.join("; ");
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return `is required (expected ${issue.expected})`;
  }
  if (issue.code === "unrecognized_keys") {
    return `unknown ${issue.keys.length === 1 ? "key" : "keys"} ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
  }
  return issue.message.replace(/^Invalid input: /, "");
}
