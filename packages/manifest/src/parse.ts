import { readFileSync } from "node:fs";
import { LineCounter, parseDocument, type YAMLError } from "yaml";
import { checkIntegerFields } from "./integer-fields.js";
import { createLocator, withLines } from "./locate.js";
import { checkManifestRules } from "./manifest-rules.js";
import { type Manifest, manifestSchema } from "./manifest-schema.js";
import { type ManifestProblem, problem } from "./problem.js";
import { findUnknownKeys } from "./unknown-keys.js";
import { describeValue, shapeProblems } from "./zod-issues.js";

/**
 * What reading a manifest gives: the typed manifest with Selu's defaults whenever the document has the
 * right shape (even if rules are broken, so callers can still use it), and every problem found. The
 * manifest is fit to ship only when `problems` is empty.
 */
export interface ParseResult {
  manifest: Manifest | undefined;
  problems: ManifestProblem[];
}

/**
 * Parses manifest.yaml as Selu does, but loudly: Selu skips a manifest it can't load and ignores unknown
 * keys without a word; here both are problems with their path, line and what was expected.
 *
 * @example
 * const { manifest, problems } = parseManifest("id: pdf\nclass: tool\nimage: ghcr.io/o/selu-cap-pdf:1.0.0\n");
 */
export function parseManifest(yamlText: string): ParseResult {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yamlText, { prettyErrors: false, lineCounter });
  const yamlProblem = (e: YAMLError) => ({ ...problem("yaml", [], `YAML: ${e.message}`), line: lineCounter.linePos(e.pos[0]).line });
  const problems: ManifestProblem[] = [...doc.errors, ...doc.warnings].map(yamlProblem);
  if (doc.errors.length > 0) return { manifest: undefined, problems };

  let document: unknown;
  try {
    document = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    problems.push({ ...problem("yaml", [], `YAML: ${(error as Error).message}`), line: 1 });
    return { manifest: undefined, problems };
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    problems.push(problem("shape", [], `expected a mapping with id, class, image and tools, got ${document === null ? "an empty document" : describeValue(document)}`));
    return { manifest: undefined, problems: withLines(problems, createLocator(doc, lineCounter)) };
  }

  const parsed = manifestSchema.safeParse(document, { reportInput: true });
  const manifest = parsed.success ? parsed.data : undefined;
  problems.push(...(parsed.success ? checkManifestRules(parsed.data) : shapeProblems(parsed.error.issues, document)));
  problems.push(...checkIntegerFields(doc, yamlText));
  problems.push(...findUnknownKeys(document, manifestSchema));
  return { manifest, problems: withLines(problems, createLocator(doc, lineCounter)) };
}

/**
 * Reads and parses a manifest file ({@link parseManifest}). A file that can't be read throws Node's error,
 * which names the path; a file that can be read never throws.
 */
export function loadManifest(path: string): ParseResult {
  return parseManifest(readFileSync(path, "utf8"));
}
