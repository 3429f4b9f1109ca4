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

/** What was checked: with it, unknown keys inside the arguments are told what their object takes. */
export interface Checked {
  schema: z.ZodType;
  value: unknown;
}

/** One line per issue: where, and what was expected. At most `max` issues, then a count of the rest. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], max = 5, checked?: Checked): string {
  const lines = issues.slice(0, max).map((issue) => {
    const found = explain(issue, issue.path);
    const takes = checked && issue.code === "unrecognized_keys" && found.path.length > 0 ? acceptedKeys(checked, found.path) : undefined;
    return `${formatPath(found.path)}: ${found.message}${takes ? ` (it takes: ${takes.join(", ")})` : ""}`;
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

// Unknown keys named shortly: a model's paragraph written as a key, or 20,000 of them, are echoed in part.
const MAX_KEYS_SHOWN = 5;
const MAX_KEY_CHARS = 40;

function unknownKeys(keys: readonly string[]): string {
  return `unknown ${keys.length === 1 ? "key" : "keys"} ${quotedKeys(keys)}`;
}

/** Keys as an error names them: quoted, five at most (then how many more), each cut at 40 characters. */
export function quotedKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, MAX_KEYS_SHOWN).map((k) => JSON.stringify(k.length > MAX_KEY_CHARS ? `${sliceWhole(k, MAX_KEY_CHARS)}…` : k));
  if (keys.length > MAX_KEYS_SHOWN) shown.push(`and ${keys.length - MAX_KEYS_SHOWN} more`);
  return shown.join(", ");
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  values?: unknown[];
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

// Objects whose keys a model writes otherwise than the schema reads them (an attachment: `artifact_id`,
// which Selu rewrites to `capability_artifact_id` and the file's name, type and size).
const modelKeys = new WeakMap<z.ZodType, readonly string[]>();

/** Says which keys an error names as what `object` takes, in place of its schema's own. */
export function takesKeys(object: z.ZodType, keys: readonly string[]): void {
  modelKeys.set(object, keys);
}

/**
 * The keys the object at `path` of the checked value takes, by walking the schema alongside the value
 * (through optional, default and transformed schemas, and into the union member the value is of: the
 * object whose literal fields, such as a block's `type`, match it); undefined when it can't be told.
 */
export function acceptedKeys({ schema, value }: Checked, path: readonly PropertyKey[]): string[] | undefined {
  let at: z.ZodType | undefined = schema;
  let held = value;
  for (const key of path) {
    const def: Def | undefined = at && defOf(memberFor(at, held));
    if (def?.type === "object" && typeof key === "string") at = def.shape?.[key];
    else if (def?.type === "array" && typeof key === "number") at = def.element;
    else return undefined;
    held = (held as Record<PropertyKey, unknown> | undefined)?.[key];
  }
  const object = at && memberFor(at, held);
  const given = object && modelKeys.get(object);
  if (given) return [...given];
  const def = object && defOf(object);
  return def?.type === "object" && def.shape ? Object.keys(def.shape) : undefined;
}

/** `schema` without its wrappers, and of a union the member `value` is of (the first that may be). */
function memberFor(schema: z.ZodType, value: unknown): z.ZodType {
  let at = schema;
  for (let def = defOf(at); ; def = defOf(at)) {
    if (["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"].includes(def.type) && def.innerType) at = def.innerType;
    else if (def.type === "pipe" && def.in) at = def.in;
    else if (def.type === "union" && def.options) {
      const member = def.options.find((option) => fits(option, value));
      if (!member) return at;
      at = member;
    } else return at;
  }
}

/** Whether `value` may be of `schema`'s kind: an object whose literal fields match, an array, a string… */
function fits(schema: z.ZodType, value: unknown): boolean {
  const member = memberFor(schema, value);
  const def = defOf(member);
  switch (def.type) {
    case "object":
      if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
      return Object.entries(def.shape ?? {}).every(([key, field]) => {
        const literal = defOf(field);
        return literal.type !== "literal" || (literal.values ?? []).includes((value as Record<string, unknown>)[key]);
      });
    case "array":
      return Array.isArray(value);
    case "string":
    case "number":
    case "boolean":
      return typeof value === def.type;
    case "union":
      return false; // memberFor found no member it fits
    default:
      return true;
  }
}
