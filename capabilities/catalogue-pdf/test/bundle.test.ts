import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const bundle = new URL("../dist/bundle/", import.meta.url);

describe("the production bundle", () => {
  // V8 keeps a module's source in memory as one string, two bytes a character as soon as one character is
  // above U+00FF: scripts/bundle-entry.mjs (ASCII output) keeps the bundle's 2 MB at one byte (issue 17, idle RSS).
  // (Latin-1 is still one byte: a licence comment, which the build keeps, may name "Jimmy Wärting".)
  it("has no character above U+00FF, so that V8 holds its sources at one byte a character", () => {
    const chunks = readdirSync(bundle).filter((f) => f.endsWith(".js"));
    expect(chunks.length).toBeGreaterThan(5);
    const offending = chunks.filter((f) => /[^\x00-\xff]/.test(readFileSync(new URL(f, bundle), "utf8")));
    expect(offending).toEqual([]);
  });
});
