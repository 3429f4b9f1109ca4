import { describe, expect, it } from "vitest";
import { CallArtifacts } from "./access.js";
import { ArtifactStore } from "./store.js";

const input = { kind: "input" as const, filename: "in.bin", mimeType: "application/octet-stream" };

describe("CallArtifacts.read", () => {
  it("tells a call whose input was dropped to make room why, and one with an unknown id to attach it again", () => {
    const store = new ArtifactStore({ maxArtifactBytes: 100, budgetBytes: 100, ttlMs: 60_000, unusedGraceMs: 0 });
    const dropped = store.put(Buffer.alloc(100), input);
    store.put(Buffer.alloc(100), input);
    const files = new CallArtifacts(store, new AbortController().signal);
    expect(() => files.read({ capability_artifact_id: dropped.id }, "attachments[0]")).toThrow(
      "attachments[0]: the file was dropped from this capability's memory, which files of calls running at once had filled; send fewer or smaller files at once, or try again shortly",
    );
    expect(() => files.read({ capability_artifact_id: "0".repeat(32) }, "attachments[1]")).toThrow(/^attachments\[1\]: no uploaded file with id .* attach the artifact again$/);
  });
});
