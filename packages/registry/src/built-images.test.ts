import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BUILD_RECORDS, builtImageProblems, readBuildRecords } from "./built-images.js";
import { tempTree } from "./test-fixtures.js";

const image = "ghcr.io/o/selu-cap-catalogue-notes:1.2.3";
const labels = { title: "selu-cap-catalogue-notes", version: "1.2.3", source: "https://github.com/o/r" };
const oci = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [`org.opencontainers.image.${k}`, v]));

describe("builtImageProblems", () => {
  it("accepts an image whose labels are the ones its Dockerfile sets", () => {
    expect(builtImageProblems({ id: "sha256:1", labels: oci(labels) }, { image, version: "1.2.3", labels })).toEqual([]);
  });

  it("reports a reference no build produced", () => {
    expect(builtImageProblems(undefined, { image, version: "1.2.3", labels })).toEqual([`${image}: no image with this reference was built (./dev images tags each build with its manifest's image)`]);
  });

  it("reports an image built from another version or repository, naming each label", () => {
    const found = { id: "sha256:1", labels: oci({ ...labels, version: "1.2.2", source: "https://example.org/fork" }) };
    expect(builtImageProblems(found, { image, version: "1.2.3", labels })).toEqual([
      `${image}: label org.opencontainers.image.version is "1.2.2"; the marketplace announces 1.2.3`,
      `${image}: label org.opencontainers.image.source is "https://example.org/fork"; its Dockerfile sets "https://github.com/o/r"`,
    ]);
  });

  it("reports an image without labels", () => {
    expect(builtImageProblems({ id: "sha256:1", labels: {} }, { image, version: "1.2.3", labels: { version: "1.2.3" } })).toEqual([
      `${image}: label org.opencontainers.image.version is undefined; the marketplace announces 1.2.3`,
    ]);
  });
});

describe("readBuildRecords", () => {
  it("reads what ./dev images recorded, by capability id, and nothing when it never ran", () => {
    const root = tempTree({});
    expect(readBuildRecords(root).size).toBe(0);
    mkdirSync(join(root, BUILD_RECORDS), { recursive: true });
    const record = { id: "catalogue-notes", image, imageId: "sha256:1", storage: "/var/lib/x", driver: "vfs", builtAt: "2026-11-23T00:00:00Z" };
    writeFileSync(join(root, BUILD_RECORDS, "catalogue-notes.json"), JSON.stringify(record));
    expect(readBuildRecords(root).get("catalogue-notes")).toEqual(record);
  });
});
