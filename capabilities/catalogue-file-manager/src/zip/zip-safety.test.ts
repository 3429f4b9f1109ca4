// Regression suite for archives: zip-slip names, links in archives, links already in the workspace,
// bombs and archives whose headers lie. Real temp directories; archives made by hand (craftZip).
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bufferSource, craftZip, type CraftEntry } from "../../test/fixtures/craft-zip.js";
import { SECRET, tempWorld, type TempWorld } from "../../test/fixtures/temp-world.js";
import { WriteBudget, type WriteQuotas } from "../workspace/quota.js";
import { SecureFs } from "../workspace/secure-fs.js";
import { extract } from "./extract.js";

const QUOTAS: WriteQuotas = { maxFileBytes: 8 * 1024 * 1024, maxFilesPerCall: 50, maxBytesPerCall: 16 * 1024 * 1024 };
const LIMITS = { maxEntries: 100, maxRatio: 100 };

let world: TempWorld;
let fs: SecureFs;
beforeEach(() => {
  world = tempWorld();
  fs = new SecureFs(world.root);
});
afterEach(() => world.cleanup());

const unzip = (entries: CraftEntry[], quotas: Partial<WriteQuotas> = {}, limits = LIMITS) =>
  extract(fs, bufferSource(craftZip(entries)), ["dest"], new WriteBudget({ ...QUOTAS, ...quotas }), limits, false);
const outsideUntouched = () => {
  expect(readFileSync(world.secret, "utf8")).toBe(SECRET);
  expect(readdirSync(world.outside)).toEqual(["secret.txt"]);
  expect(readdirSync(world.base).sort()).toEqual(["outside", "ws", "ws-evil"]);
};

describe("zip-slip", () => {
  it("refuses an entry named ../../evil.txt and writes nothing, not even the entries before it", async () => {
    await expect(
      unzip([
        { name: "ok.txt", data: Buffer.from("ok") },
        { name: "../../evil.txt", data: Buffer.from("x") },
      ]),
    ).rejects.toThrow(/entry "\.\.\/\.\.\/evil\.txt": .* contains "\.\."/);
    expect(existsSync(join(world.root, "dest", "ok.txt"))).toBe(false);
    outsideUntouched();
  });

  it("refuses an absolute entry name", async () => {
    await expect(unzip([{ name: `${world.outside}/abs.txt`, data: Buffer.from("x") }])).rejects.toThrow(/is absolute/);
    outsideUntouched();
  });

  it("refuses ..\\..\\evil.txt, reading backslashes as the separators Windows archivers meant", async () => {
    await expect(unzip([{ name: "..\\..\\evil.txt", data: Buffer.from("x") }])).rejects.toThrow(/contains "\.\."/);
    outsideUntouched();
  });

  it("refuses an entry name with a NUL byte", async () => {
    await expect(unzip([{ name: "a.txt\0.png", data: Buffer.from("x") }])).rejects.toThrow(/NUL/);
  });
});

describe("links in archives", () => {
  it("skips a symlink entry instead of creating it", async () => {
    const result = await unzip([
      { name: "link", data: Buffer.from(world.secret), mode: 0o120777 },
      { name: "a.txt", data: Buffer.from("a") },
    ]);
    expect(result.skipped).toEqual([{ entry: "link", reason: "a symbolic link; links are never extracted" }]);
    expect(readdirSync(join(world.root, "dest"))).toEqual(["a.txt"]);
  });

  it("writes link/x into a real directory when an archive's link entry precedes it (no write through the link)", async () => {
    await unzip([
      { name: "link", data: Buffer.from(world.outside), mode: 0o120777 },
      { name: "link/pwned.txt", data: Buffer.from("x") },
    ]);
    expect(readFileSync(join(world.root, "dest", "link", "pwned.txt"), "utf8")).toBe("x");
    outsideUntouched();
  });

  it("refuses to extract through a link already in the workspace", async () => {
    mkdirSync(join(world.root, "dest"));
    symlinkSync(world.outside, join(world.root, "dest", "out"));
    await expect(unzip([{ name: "out/pwned.txt", data: Buffer.from("x") }])).rejects.toThrow(/dest\/out is a symbolic link/);
    outsideUntouched();
  });

  it("refuses to replace a link in the workspace with an extracted file", async () => {
    mkdirSync(join(world.root, "dest"));
    symlinkSync(world.secret, join(world.root, "dest", "secret.txt"));
    await expect(extract(fs, bufferSource(craftZip([{ name: "secret.txt", data: Buffer.from("pwned") }])), ["dest"], new WriteBudget(QUOTAS), LIMITS, true)).rejects.toThrow(/is a symbolic link/);
    outsideUntouched();
  });
});

describe("bombs and lying headers", () => {
  it("stops a highly compressed entry at the ratio limit while inflating", async () => {
    const zeros = Buffer.alloc(6 * 1024 * 1024);
    await expect(unzip([{ name: "bomb.bin", data: zeros, deflate: true }])).rejects.toThrow(/inflates more than 100 times its compressed size; refused as a likely ZIP bomb/);
    expect(readdirSync(join(world.root, "dest"))).toEqual([]);
  });

  it("stops an entry whose header claims 10 bytes at the per-file limit, not at the claimed size", async () => {
    const data = Buffer.alloc(9 * 1024 * 1024, "a");
    await expect(unzip([{ name: "liar.txt", data, claimSize: 10 }], {}, { ...LIMITS, maxRatio: 1e9 })).rejects.toThrow(/inflates to more than 8388608 bytes/);
    expect(readdirSync(join(world.root, "dest"))).toEqual([]);
  });

  it("refuses an entry whose data does not match its claimed size", async () => {
    await expect(unzip([{ name: "short.txt", data: Buffer.from("abc"), claimSize: 2 }])).rejects.toThrow(/does not match the archive's size or checksum/);
  });

  it("refuses an archive with more entries than allowed before extracting any", async () => {
    const entries = Array.from({ length: 101 }, (_, i) => ({ name: `f${i}.txt`, data: Buffer.from("x") }));
    await expect(unzip(entries)).rejects.toThrow(/has 101 entries; at most 100 can be extracted at once/);
    expect(existsSync(join(world.root, "dest"))).toBe(false);
  });

  it("stops at the call's byte quota across entries", async () => {
    const entries = Array.from({ length: 4 }, (_, i) => ({ name: `f${i}.bin`, data: Buffer.alloc(400_000, i) }));
    await expect(unzip(entries, { maxBytesPerCall: 1_000_000 })).rejects.toThrow(/f2\.bin: one call may write at most/);
    expect(readdirSync(join(world.root, "dest")).sort()).toEqual(["f0.bin", "f1.bin"]);
  });

  it("refuses a file that is not a ZIP archive", async () => {
    await expect(extract(fs, bufferSource(Buffer.from("not a zip at all")), ["dest"], new WriteBudget(QUOTAS), LIMITS, false)).rejects.toThrow(/not a ZIP archive/);
  });
});
