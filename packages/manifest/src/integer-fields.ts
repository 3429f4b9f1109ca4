import { type Document, isScalar, Scalar } from "yaml";
import { type ManifestProblem, problem } from "./problem.js";

/** The integer fields of manifest.yaml and the Rust type Selu deserialises each into. */
const INTEGER_FIELDS: readonly { path: readonly string[]; max: bigint; type: "u32" | "u64" }[] = [
  { path: ["resources", "max_memory_mb"], max: 2n ** 32n - 1n, type: "u32" },
  { path: ["resources", "max_cpu_seconds"], max: 2n ** 32n - 1n, type: "u32" },
  { path: ["resources", "pids_limit"], max: 2n ** 32n - 1n, type: "u32" },
  { path: ["sharing", "max_concurrent"], max: 2n ** 32n - 1n, type: "u32" },
  { path: ["sharing", "idle_timeout_seconds"], max: 2n ** 64n - 1n, type: "u64" },
];

// What serde_yaml reads as an unsigned integer: decimal digits (no leading zeros here, which YAML 1.1
// readers take for octal), 0x or 0o, an optional +.
const YAML_INTEGER = /^\+?(?:0|[1-9][0-9]*|0x[0-9a-fA-F]+|0o[0-7]+)$/;

/**
 * Checks that Selu's integer fields are written as YAML integers within their Rust type. serde_yaml
 * refuses `256.0`, `1e3` (floats) and `"256"` (a string) for a u32, and a value over 2^32-1, and then
 * Selu drops the whole capability with only a log line; a YAML reader in JavaScript reads the first two
 * as 256 and 1000 without a word, so the check looks at the text as written.
 */
export function checkIntegerFields(doc: Document, text: string): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  for (const field of INTEGER_FIELDS) {
    const node = doc.getIn(field.path, true);
    if (!isScalar(node) || typeof node.value !== "number" || !Number.isInteger(node.value) || node.value <= 0) continue; // the shape check reports those
    const written = node.range ? text.slice(node.range[0], node.range[1]).trim() : String(node.value);
    const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
    if (quoted || !YAML_INTEGER.test(written)) {
      problems.push(
        problem("rule", field.path, `is written ${written}: expected a YAML integer such as ${node.value} (Selu reads it as a ${field.type} and drops the whole capability for anything else)`),
      );
    } else if (BigInt(written.replace(/^\+/, "")) > field.max) {
      problems.push(problem("rule", field.path, `is ${written}, more than ${field.type} holds (${field.max}): Selu drops the whole capability`));
    }
  }
  return problems;
}
