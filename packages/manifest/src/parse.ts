import { readFileSync } from "node:fs";
import { parseDocument } from "yaml";
import type { z } from "zod";
import { manifestSchema, type Manifest } from "./manifest-schema.js";

/** One thing wrong with a manifest: where (`tools[2].recommend_policy`) and what. */
export interface ManifestProblem {
  path: string;
  message: string;
}

export type ParseResult = { manifest: Manifest; problems: ManifestProblem[] } | { manifest: undefined; problems: ManifestProblem[] };

/**
 * Parses manifest.yaml as Selu does, but loudly: Selu skips a manifest that fails to parse and ignores
 * unknown keys without a word; here both are problems with their path.
 */
export function parseManifest(text: string): ParseResult {
  const doc = parseDocument(text, { prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      manifest: undefined,
      problems: doc.errors.map((e) => ({ path: `line ${(e.linePos?.[0]?.line ?? 0)}`, message: `YAML: ${e.message.split("\n")[0]}` })),
    };
  }
  const parsed = manifestSchema.safeParse(doc.toJS());
  if (parsed.success) return { manifest: parsed.data, problems: [] };
  return { manifest: undefined, problems: parsed.error.issues.flatMap(toProblems) };
}

export function loadManifest(path: string): ParseResult {
  return parseManifest(readFileSync(path, "utf8"));
}

const KNOWN = ["id", "class", "image", "tool_source", "discovery_tool_name", "tools", "network", "filesystem", "credentials", "resources", "cache", "sharing", "name", "description", "input_schema", "recommended_policy", "terminal_on_success", "requires_confirmation", "scope", "required", "credential_type", "mode", "hosts", "max_memory_mb", "max_cpu_fraction", "max_cpu_seconds", "pids_limit", "enabled", "max_concurrent", "idle_timeout_seconds"];

function toProblems(issue: z.core.$ZodIssue): ManifestProblem[] {
  const base = formatPath(issue.path);
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => {
      const near = suggest(key);
      return {
        path: base ? `${base}.${key}` : key,
        message: `unknown key (Selu ignores it silently)${near ? `; did you mean ${near}?` : ""}`,
      };
    });
  }
  return [{ path: base || "(manifest)", message: issue.message.replace(/^Invalid input: /, "") }];
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("");
}

function suggest(key: string): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const known of KNOWN) {
    const d = distance(key, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}
