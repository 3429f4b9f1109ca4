import type { KeyPath } from "./problem.js";

/** Where two JSON values first differ, and what each side has there (undefined: the key is absent). */
export interface JsonDifference {
  keyPath: KeyPath;
  left: unknown;
  right: unknown;
}

/**
 * Deep-compares two JSON values (as parsed from YAML or JSON) and returns the first place they differ,
 * or undefined when equal. Key order doesn't matter; list order does. Used to point at the exact schema
 * keyword that drifted instead of saying "the schema differs".
 */
export function firstDifference(left: unknown, right: unknown, keyPath: KeyPath = []): JsonDifference | undefined {
  if (Object.is(left, right)) return undefined;
  const here = { keyPath, left, right };
  if (Array.isArray(left) && Array.isArray(right)) {
    for (let i = 0; i < Math.max(left.length, right.length); i++) {
      const difference = firstDifference(left[i], right[i], [...keyPath, i]);
      if (difference) return difference;
    }
    return undefined;
  }
  if (!isMapping(left) || !isMapping(right)) return here;
  const keys = [...Object.keys(left), ...Object.keys(right).filter((k) => !Object.hasOwn(left, k))];
  for (const key of keys) {
    const difference = firstDifference(left[key], right[key], [...keyPath, key]);
    if (difference) return difference;
  }
  return undefined;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
