import { z } from "zod";
import { type KeyPath, type ManifestProblem, problem } from "./problem.js";
import { closestKey } from "./suggest.js";

// Selu ignores keys it doesn't know, so a typo silently turns a setting off. The known keys come from the
// manifest's zod schema itself, so this list can't fall behind the model.

type Schema = z.ZodType;

/**
 * Every key in `value` that `schema` doesn't define, at any depth (objects and lists of objects; free-form
 * records such as `input_schema` are not entered), each with a did-you-mean when one is close.
 */
export function findUnknownKeys(value: unknown, schema: Schema): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  walk(value, schema, [], problems, keyHomes(schema));
  return problems;
}

function walk(value: unknown, schema: Schema, at: KeyPath, out: ManifestProblem[], homes: KeyHomes): void {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    if (!isMapping(value)) return;
    const shape = inner.shape as Record<string, Schema>;
    const known = Object.keys(shape);
    for (const [key, child] of Object.entries(value)) {
      const childSchema = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (childSchema) walk(child, childSchema, [...at, key], out, homes);
      else out.push(problem("unknown-key", [...at, key], unknownKeyMessage(key, known, homes, at)));
    }
  } else if (inner instanceof z.ZodArray && Array.isArray(value)) {
    value.forEach((item, i) => walk(item, inner.element as Schema, [...at, i], out, homes));
  }
}

function unknownKeyMessage(key: string, known: readonly string[], homes: KeyHomes, at: KeyPath): string {
  const base = "unknown key (Selu ignores it silently)";
  const near = closestKey(key, known);
  if (near) return `${base}; did you mean ${near}?`;
  // A known key written at the wrong level, e.g. `hosts` at the top instead of under `network`.
  const here = levelOf(at);
  const elsewhere = (homes.get(key) ?? []).filter((home) => home !== here);
  const home = elsewhere.length === 1 ? elsewhere[0]! : undefined;
  if (home !== undefined) {
    const where = home === "" ? "at the top level" : home.endsWith("[]") ? `in each entry of ${home.slice(0, -2)}` : `under ${home}`;
    return `${base}; did you mean ${home ? `${home}.` : ""}${key}? (${key} belongs ${where})`;
  }
  return `${base}; expected one of ${known.join(", ")}`;
}

/** For each key the schema knows, the levels it lives at (`network`, `tools[]`, `` for the top). */
type KeyHomes = Map<string, string[]>;

const homesCache = new WeakMap<Schema, KeyHomes>();

function keyHomes(schema: Schema): KeyHomes {
  const cached = homesCache.get(schema);
  if (cached) return cached;
  const homes: KeyHomes = new Map();
  const visit = (s: Schema, level: string): void => {
    const inner = unwrap(s);
    if (inner instanceof z.ZodArray) return visit(inner.element as Schema, `${level}[]`);
    if (!(inner instanceof z.ZodObject)) return;
    for (const [key, child] of Object.entries(inner.shape as Record<string, Schema>)) {
      homes.set(key, [...(homes.get(key) ?? []), level]);
      visit(child, level ? `${level}.${key}` : key);
    }
  };
  visit(schema, "");
  homesCache.set(schema, homes);
  return homes;
}

function levelOf(at: KeyPath): string {
  return at
    .map((k) => (typeof k === "number" ? "[]" : `.${k}`))
    .join("")
    .replace(/^\./, "");
}

function unwrap(schema: Schema): Schema {
  let s = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodPrefault || s instanceof z.ZodOptional || s instanceof z.ZodNullable) {
    s = s.unwrap() as Schema;
  }
  return s;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
