import { describe, expect, it } from "vitest";
import { parseManifest } from "./parse.js";

const manifest = (resources: string, sharing = "") =>
  `id: pdf\nclass: tool\nimage: ghcr.io/o/selu-cap-pdf:1.0.0\ntools:\n  - name: t\n    description: d\n    input_schema: {type: object}\n    recommended_policy: allow\nresources:\n${resources}\n${sharing}`;
const integerProblems = (text: string) => parseManifest(text).problems.filter((p) => p.kind === "rule" && /drops the whole capability/.test(p.message));

describe("integer fields as Selu's serde_yaml reads them", () => {
  it.each(["256", "+256", "0x100", "0o400"])("accepts max_memory_mb: %s", (written) => {
    expect(integerProblems(manifest(`  max_memory_mb: ${written}`))).toEqual([]);
  });

  it.each([
    ["256.0", "is written 256.0: expected a YAML integer such as 256 (Selu reads it as a u32 and drops the whole capability for anything else)"],
    ["1e3", "is written 1e3: expected a YAML integer such as 1000 (Selu reads it as a u32 and drops the whole capability for anything else)"],
    ["0256", "is written 0256: expected a YAML integer such as 256 (Selu reads it as a u32 and drops the whole capability for anything else)"],
    ["4294967296", "is 4294967296, more than u32 holds (4294967295): Selu drops the whole capability"],
  ])("refuses max_memory_mb: %s, saying why", (written, message) => {
    expect(integerProblems(manifest(`  max_memory_mb: ${written}`))).toEqual([expect.objectContaining({ path: "resources.max_memory_mb", message, line: 10 })]);
  });

  it("checks pids_limit, max_cpu_seconds and sharing's integers too, idle_timeout_seconds as a u64", () => {
    const text = manifest("  pids_limit: 64.0\n  max_cpu_seconds: 3e1", "sharing:\n  mode: shared\n  max_concurrent: 2.0\n  idle_timeout_seconds: 4294967296");
    expect(
      integerProblems(text)
        .map((p) => p.path)
        .sort(),
    ).toEqual(["resources.max_cpu_seconds", "resources.pids_limit", "sharing.max_concurrent"]);
  });

  it("refuses 2^32 as the shape check does (not a number at all)", () => {
    expect(parseManifest(manifest("  max_memory_mb: 2^32")).problems.map((p) => p.path)).toContain("resources.max_memory_mb");
  });
});
