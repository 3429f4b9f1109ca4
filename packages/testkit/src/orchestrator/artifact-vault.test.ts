import { describe, expect, it } from "vitest";
import { ARTIFACT_TTL_MS, ArtifactVault } from "./artifact-vault.js";

describe("ArtifactVault", () => {
  it("gives an artifact to its owner only, as 'not found' to anyone else", () => {
    const vault = new ArtifactVault();
    const a = vault.store("alice", "a.txt", "text/plain", Buffer.from("a"));
    expect(vault.take("alice", a.artifactId)).toBe(a);
    expect(vault.take("bob", a.artifactId)).toEqual({ error: `artifact ${a.artifactId} not found` });
  });

  it("expires artifacts after Selu's 6 h", () => {
    let now = 0;
    const vault = new ArtifactVault(() => now);
    const a = vault.store("alice", "a.txt", "text/plain", Buffer.from("a"));
    now = ARTIFACT_TTL_MS;
    expect(vault.take("alice", a.artifactId)).toBe(a);
    now = ARTIFACT_TTL_MS + 1;
    expect(vault.take("alice", a.artifactId)).toEqual({ error: `artifact ${a.artifactId} has expired` });
  });
});
