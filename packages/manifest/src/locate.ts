import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from "yaml";
import type { KeyPath, ManifestProblem } from "./problem.js";

/** Finds the 1-based line of a key path in a YAML document; see {@link createLocator}. */
export type Locate = (keyPath: KeyPath) => number | undefined;

/**
 * Maps key paths to lines so every problem can point into manifest.yaml. A key's own line is used (not its
 * value's), and a missing key falls back to its nearest existing parent, e.g. the tool that lacks it.
 */
export function createLocator(doc: Document, lineCounter: LineCounter): Locate {
  const offsetOf = (keyPath: KeyPath): number | undefined => {
    if (keyPath.length === 0) return doc.contents?.range?.[0];
    const parent = doc.getIn(keyPath.slice(0, -1), true);
    const last = keyPath.at(-1);
    if (isMap(parent)) {
      const pair = parent.items.find((p) => (isScalar(p.key) ? String(p.key.value) : p.key) === String(last));
      return isScalar(pair?.key) ? pair.key.range?.[0] : undefined;
    }
    if (isSeq(parent) && typeof last === "number") {
      const item = parent.items[last];
      return item && typeof item === "object" && "range" in item ? (item.range as [number] | undefined)?.[0] : undefined;
    }
    return undefined;
  };
  return (keyPath) => {
    for (let n = keyPath.length; n >= 0; n--) {
      const offset = offsetOf(keyPath.slice(0, n));
      if (offset !== undefined) return lineCounter.linePos(offset).line;
    }
    return undefined;
  };
}

/** A locator for YAML text, for problems found after parsing (such as drift from the code). */
export function locatorFor(yamlText: string): Locate {
  const lineCounter = new LineCounter();
  return createLocator(parseDocument(yamlText, { lineCounter }), lineCounter);
}

/** Fills in missing lines with `locate` and orders problems as they appear in the file (unknown lines last). */
export function withLines(problems: readonly ManifestProblem[], locate: Locate): ManifestProblem[] {
  const located = problems.map((p, i) => {
    const line = p.line ?? locate(p.keyPath);
    return { p: line === undefined ? p : { ...p, line }, i };
  });
  located.sort((a, b) => (a.p.line ?? Infinity) - (b.p.line ?? Infinity) || a.i - b.i);
  return located.map(({ p }) => p);
}
