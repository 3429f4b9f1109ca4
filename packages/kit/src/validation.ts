import type { z } from "zod";
import { sliceWhole } from "./format.js";

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
  const lines = issues.slice(0, max).map((issue) => {
    const found = explain(issue, issue.path);
    return `${formatPath(found.path)}: ${found.message}`;
  });
  if (issues.length > max) lines.push(`(${issues.length - max} more)`);
  return lines.join("; ");
}

/**
 * Where an issue really is. zod reports a failed `A | B` as "Invalid input" at the union; the branch the
 * value was meant for is the one whose type it has (its first problem is not at the branch's root), so
 * report that branch's problem at its full path. With no such branch, name the types that would fit.
 */
function explain(issue: z.core.$ZodIssue, path: readonly PropertyKey[]): { path: readonly PropertyKey[]; message: string } {
  if (issue.code !== "invalid_union" || issue.errors.length === 0) return { path, message: describeIssue(issue) };
  const meant = issue.errors.find((branch) => branch.length > 0 && !isRootTypeMismatch(branch[0]!));
  if (meant) return explain(meant[0]!, [...path, ...meant[0]!.path]);
  if (issue.message !== "Invalid input") return { path, message: issue.message }; // the schema's own words
  const expected = [
    ...new Set(
      issue.errors
        .map((branch) => branch[0])
        .filter((i) => i?.code === "invalid_type")
        .map((i) => i.expected),
    ),
  ];
  return { path, message: expected.length > 0 ? `expected ${expected.join(" or ")}` : describeIssue(issue) };
}

function isRootTypeMismatch(issue: z.core.$ZodIssue): boolean {
  return issue.code === "invalid_type" && issue.path.length === 0;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return `is required (expected ${issue.expected})`;
  }
  if (issue.code === "unrecognized_keys") return unknownKeys(issue.keys);
  return issue.message.replace(/^Invalid input: /, "");
}

/** Unknown keys named shortly: a model's paragraph written as a key, or 20,000 of them, are echoed in part. */
const MAX_KEYS_SHOWN = 5;
const MAX_KEY_CHARS = 40;

function unknownKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, MAX_KEYS_SHOWN).map((k) => JSON.stringify(k.length > MAX_KEY_CHARS ? `${sliceWhole(k, MAX_KEY_CHARS)}…` : k));
  if (keys.length > MAX_KEYS_SHOWN) shown.push(`and ${keys.length - MAX_KEYS_SHOWN} more`);
  return `unknown ${keys.length === 1 ? "key" : "keys"} ${shown.join(", ")}`;
}
