import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { extractTarGz, MAX_EXTRACTED_BYTES } from "./extract.js";
import { writeTar } from "./tar.js";

/** A tar whose first entry is rewritten: its name and type flag, with the checksum fixed up. */
function tamper(name: string, flag: string): Buffer {
  const tar = writeTar("top", [{ path: "a.txt", bytes: Buffer.from("x") }]);
  const block = tar.subarray(512, 1024); // the file's header follows the top folder's
  block.fill(0, 0, 100);
  block.write(name, 0, 100, "utf8");
  block.write(flag, 156, 1, "ascii");
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, 8, "ascii");
  return gzipSync(tar);
}

describe("extractTarGz", () => {
  it("strips the one top-level folder", () => {
    const files = extractTarGz(gzipSync(writeTar("agent-1.0.0", [{ path: "i18n/de.yaml", bytes: Buffer.from("a") }])));
    expect([...files.keys()]).toEqual(["i18n/de.yaml"]);
  });

  it("refuses a path escape with ..", () => {
    expect(() => extractTarGz(tamper("top/../../etc/passwd", "0"))).toThrow('archive: "top/../../etc/passwd" would escape');
  });

  it("refuses an absolute path", () => {
    expect(() => extractTarGz(tamper("/etc/passwd", "0"))).toThrow('archive: "/etc/passwd" would escape');
  });

  it("refuses symbolic and hard links", () => {
    expect(() => extractTarGz(tamper("top/link", "2"))).toThrow("archive: top/link is a link");
    expect(() => extractTarGz(tamper("top/hard", "1"))).toThrow("archive: top/hard is a link");
  });

  it("refuses device files and other entry types", () => {
    expect(() => extractTarGz(tamper("top/dev", "3"))).toThrow('has entry type "3"');
  });

  it("stops inflating a decompression bomb at the limit", () => {
    const bomb = gzipSync(Buffer.alloc(MAX_EXTRACTED_BYTES + 1024));
    expect(() => extractTarGz(bomb)).toThrow(`not a gzip stream within ${MAX_EXTRACTED_BYTES} bytes`);
  });

  it("refuses a header with a wrong checksum", () => {
    const tar = writeTar("top", [{ path: "a.txt", bytes: Buffer.from("x") }]);
    tar[0] = "X".charCodeAt(0);
    expect(() => extractTarGz(gzipSync(tar))).toThrow("wrong checksum");
  });
});
