/** Where in the manifest something is: keys and list indexes from the top, e.g. `["tools", 2, "name"]`. */
export type KeyPath = readonly (string | number)[];

/**
 * What kind of problem it is, so callers can tell Selu's view from the catalogue's:
 * - `yaml`: not readable YAML; Selu skips the whole manifest without a word.
 * - `shape`: a key has the wrong type, an unknown enum value or is missing; Selu can't load the manifest.
 * - `unknown-key`: a key Selu ignores silently (usually a typo, so a setting that has no effect).
 * - `rule`: breaks one of Selu's cross-field rules or a catalogue rule (names, hosts, schemas).
 * - `drift`: manifest.yaml says something other than the capability's code.
 */
export type ProblemKind = "yaml" | "shape" | "unknown-key" | "rule" | "drift";

/** One thing wrong with a manifest: where (`tools[2].recommend_policy`), what was expected, and the line. */
export interface ManifestProblem {
  kind: ProblemKind;
  /** Readable location, e.g. `tools[2].recommend_policy`; `(document)` for the whole file. */
  path: string;
  /** The same location as keys and indexes, for tools that look it up in the YAML document. */
  keyPath: KeyPath;
  message: string;
  /** 1-based line in manifest.yaml, when known. */
  line?: number;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * Renders a key path as people write it: `tools[2].input_schema.properties["a.b"]`. Keys that are not
 * plain identifiers are quoted so the path stays unambiguous.
 */
export function formatKeyPath(keyPath: KeyPath): string {
  let out = "";
  for (const key of keyPath) {
    if (typeof key === "number") out += `[${key}]`;
    else if (!PLAIN_KEY.test(key)) out += `[${JSON.stringify(key)}]`;
    else out += out ? `.${key}` : key;
  }
  return out || "(document)";
}

/** Builds a problem; the readable path is derived from the key path so the two always agree. */
export function problem(kind: ProblemKind, keyPath: KeyPath, message: string): ManifestProblem {
  return { kind, path: formatKeyPath(keyPath), keyPath: [...keyPath], message };
}

/** A short rendering of a value for messages: JSON, cut to `max` characters. */
export function preview(value: unknown, max = 60): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
