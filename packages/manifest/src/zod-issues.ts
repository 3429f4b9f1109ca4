import type { z } from "zod";
import { type KeyPath, type ManifestProblem, problem } from "./problem.js";

/**
 * Turns zod's issues into manifest problems that say what was expected and what was found, in YAML's
 * words (a mapping, a list), e.g. `sharing.mode: expected one of exclusive, shared, got "shard"`.
 * `document` is the parsed YAML, to tell a missing key from a wrong value.
 */
export function shapeProblems(issues: readonly z.core.$ZodIssue[], document: unknown): ManifestProblem[] {
  return issues.map((issue) => {
    const keyPath = issue.path.filter((k): k is string | number => typeof k !== "symbol");
    const value = valueAt(document, keyPath);
    const expected = expectation(issue);
    const message = value === undefined ? `is required: expected ${expected}` : `expected ${expected}, got ${describeValue(value)}`;
    return problem("shape", keyPath, message);
  });
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return TYPE_NAMES[issue.expected] ?? issue.expected;
    case "invalid_value":
      return issue.values.length === 1 ? String(issue.values[0]) : `one of ${issue.values.map(String).join(", ")}`;
    case "too_small":
      return bound(issue.origin, "at least", "greater than", issue.minimum, issue.inclusive);
    case "too_big":
      return bound(issue.origin, "at most", "less than", issue.maximum, issue.inclusive);
    default:
      return issue.message;
  }
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a mapping",
  record: "a mapping",
  array: "a list",
};

function bound(origin: string, inclusiveWord: string, exclusiveWord: string, limit: number | bigint, inclusive = true): string {
  const n = Number(limit);
  if (origin === "string") return n === 1 && inclusiveWord === "at least" ? "a non-empty string" : `a string of ${inclusiveWord} ${n} characters`;
  if (origin === "array") return `a list of ${inclusiveWord} ${n} items`;
  return `a number ${inclusive ? inclusiveWord : exclusiveWord} ${n}`;
}

/** How a YAML value reads in a message: strings quoted, collections by kind, `~` or nothing as empty. */
export function describeValue(value: unknown): string {
  if (value === null) return "an empty value";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

function valueAt(root: unknown, keyPath: KeyPath): unknown {
  let node = root;
  for (const key of keyPath) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}
