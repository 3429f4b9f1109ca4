import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { extractTarGz } from "./extract.js";
import { ARCHIVE_MTIME, writeTarGz } from "./tar.js";

const files = [
  { path: "i18n/en.yaml", bytes: Buffer.from("agent: {}\n") },
  { path: "agent.yaml", bytes: Buffer.from("id: a\nname: A\n") },
  { path: `capabilities/${"d".repeat(60)}/${"n".repeat(60)}.md`, bytes: Buffer.from("é".repeat(700)) },
];

describe("writeTarGz", () => {
  it("gives the same bytes for the same files in any order", () => {
    expect(writeTarGz("a-1.0.0", files).equals(writeTarGz("a-1.0.0", [...files].reverse()))).toBe(true);
  });

  it("writes a fixed gzip header: no name, no time, OS unknown", () => {
    const gz = writeTarGz("a-1.0.0", files);
    expect([...gz.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);
  });

  it("is read by GNU tar as sorted entries under one top folder, owned by 0:0 with the fixed mtime", () => {
    const dir = mkdtempSync(join(tmpdir(), "tar-test-"));
    writeFileSync(join(dir, "a.tar.gz"), writeTarGz("a-1.0.0", files));
    const listing = execFileSync("tar", ["-tvzf", join(dir, "a.tar.gz"), "--numeric-owner", "--full-time"], { encoding: "utf8", env: { ...process.env, TZ: "UTC" } })
      .trim()
      .split("\n");
    expect(listing.map((l) => l.split(/\s+/).at(-1))).toEqual([
      "a-1.0.0/",
      "a-1.0.0/agent.yaml",
      "a-1.0.0/capabilities/",
      `a-1.0.0/capabilities/${"d".repeat(60)}/`,
      `a-1.0.0/capabilities/${"d".repeat(60)}/${"n".repeat(60)}.md`,
      "a-1.0.0/i18n/",
      "a-1.0.0/i18n/en.yaml",
    ]);
    for (const line of listing) expect(line).toMatch(/^[d-]rw[-x]r-[-x]r-[-x] 0\/0 .* 2000-01-01 00:00:00 /);
    expect(new Date(ARCHIVE_MTIME * 1000).toISOString()).toBe("2000-01-01T00:00:00.000Z");
    execFileSync("tar", ["-xzf", join(dir, "a.tar.gz"), "-C", dir]);
    expect(readFileSync(join(dir, "a-1.0.0", "capabilities", "d".repeat(60), `${"n".repeat(60)}.md`), "utf8")).toBe("é".repeat(700));
  });

  it("round-trips through extractTarGz with the top folder stripped", () => {
    const out = extractTarGz(writeTarGz("a-1.0.0", files));
    expect([...out.keys()].sort()).toEqual(files.map((f) => f.path).sort());
    expect(out.get("agent.yaml")!.toString()).toBe("id: a\nname: A\n");
  });

  it("refuses paths that could escape or collide", () => {
    expect(() => writeTarGz("a", [{ path: "../x", bytes: Buffer.alloc(0) }])).toThrow(/"\.\.\/x": expected a relative path/);
    expect(() => writeTarGz("a", [{ path: "/etc/x", bytes: Buffer.alloc(0) }])).toThrow(/relative path/);
    expect(() => writeTarGz("a", [files[0]!, files[0]!])).toThrow(/i18n\/en.yaml: listed twice/);
  });
});
