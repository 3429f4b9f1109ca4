// Regression suite: the known classes of filesystem-server escapes, each a named attack on a real
// temporary directory (the MCP filesystem server's CVE-2025-53109 symlink bypass and CVE-2025-53110
// prefix bypass among them). Every test checks that nothing outside the root was read or written.
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SECRET, tempWorld, type TempWorld } from "../../test/fixtures/temp-world.js";
import { writeAtomic } from "./atomic-write.js";
import { copy } from "./copy.js";
import { move } from "./move.js";
import { WriteBudget } from "./quota.js";
import { parseRelativePath } from "./relative-path.js";
import { remove } from "./remove.js";
import { SecureFs } from "./secure-fs.js";
import { walk, type WalkEntry } from "./walk.js";

const QUOTAS = { maxFileBytes: 1024 * 1024, maxFilesPerCall: 100, maxBytesPerCall: 4 * 1024 * 1024 };

let world: TempWorld;
let fs: SecureFs;
beforeEach(() => {
  world = tempWorld();
  fs = new SecureFs(world.root);
});
afterEach(() => world.cleanup());

const parts = (path: string) => parseRelativePath(path, "path");
async function read(path: string): Promise<string> {
  const { handle } = await fs.openFile(parts(path), "path");
  try {
    return (await handle.readFile()).toString("utf8");
  } finally {
    await handle.close();
  }
}
const write = async (path: string, text: string, overwrite = false, createParents = true) =>
  writeAtomic(fs, parts(path), Buffer.from(text), new WriteBudget(QUOTAS), "path", { overwrite, createParents });
const outsideUntouched = () => {
  expect(readFileSync(world.secret, "utf8")).toBe(SECRET);
  expect(readdirSync(world.outside)).toEqual(["secret.txt"]);
  expect(readdirSync(world.sibling)).toEqual(["secret.txt"]);
};
const inRoot = (...p: string[]) => join(world.root, ...p);

describe("sibling-prefix bypass (CVE-2025-53110)", () => {
  it("refuses ../ws-evil, a sibling whose name starts with the root's name", async () => {
    await expect(read("../ws-evil/secret.txt")).rejects.toThrow(/contains "\.\."/);
  });

  it("refuses the sibling's absolute path", async () => {
    await expect(read(join(world.sibling, "secret.txt"))).rejects.toThrow(/is absolute/);
  });

  it("does not follow a link to the sibling directory", async () => {
    symlinkSync(world.sibling, inRoot("evil"));
    await expect(read("evil/secret.txt")).rejects.toThrow(/evil is a symbolic link/);
  });

  it("reads ws-evil/secret.txt inside the root as an ordinary name, never the sibling", async () => {
    await expect(read("ws-evil/secret.txt")).rejects.toThrow(/ws-evil does not exist/);
    await write("ws-evil/secret.txt", "mine");
    expect(await read("ws-evil/secret.txt")).toBe("mine");
    outsideUntouched();
  });
});

describe(".. escapes", () => {
  it("refuses ../outside/secret.txt", async () => {
    await expect(read("../outside/secret.txt")).rejects.toThrow(/contains "\.\."/);
  });

  it("refuses a .. in the middle that climbs out (a/../../outside)", async () => {
    mkdirSync(inRoot("a"));
    await expect(read("a/../../outside/secret.txt")).rejects.toThrow(/contains "\.\."/);
  });

  it("refuses a .. even when it would stay inside (a/../b)", () => {
    expect(() => parts("a/../b")).toThrow(/contains "\.\."/);
  });

  it("refuses a write to ../escape.txt and creates nothing", async () => {
    await expect(write("../escape.txt", "x")).rejects.toThrow(/contains "\.\."/);
    expect(existsSync(join(world.base, "escape.txt"))).toBe(false);
  });

  it("treats ... as an ordinary name", async () => {
    await write(".../x.txt", "dots");
    expect(readFileSync(inRoot("...", "x.txt"), "utf8")).toBe("dots");
  });

  it("treats %2e%2e as a literal name, never decoding it", async () => {
    await write("%2e%2e/x.txt", "literal");
    expect(readFileSync(inRoot("%2e%2e", "x.txt"), "utf8")).toBe("literal");
    outsideUntouched();
  });

  it("treats ..\\..\\outside as one literal name (backslash is not a separator on Linux)", async () => {
    await write("..\\..\\outside\\secret.txt", "literal");
    expect(readdirSync(world.root)).toEqual(["..\\..\\outside\\secret.txt"]);
    outsideUntouched();
  });
});

describe("absolute paths", () => {
  it("refuses /etc/passwd", () => {
    expect(() => parts("/etc/passwd")).toThrow(/path: "\/etc\/passwd" is absolute; paths are relative to the workspace root/);
  });

  it("refuses //etc/passwd", () => {
    expect(() => parts("//etc/passwd")).toThrow(/is absolute/);
  });

  it("refuses the root's own absolute path, even for a file inside", async () => {
    writeFileSync(inRoot("in.txt"), "in");
    await expect(read(inRoot("in.txt"))).rejects.toThrow(/is absolute/);
  });

  it("treats ~/x as a literal name inside the root (no home expansion)", async () => {
    await write("~/x.txt", "tilde");
    expect(readFileSync(inRoot("~", "x.txt"), "utf8")).toBe("tilde");
  });
});

describe("NUL bytes and control characters", () => {
  it("refuses a NUL byte that would truncate the name (a.txt\\0.png)", async () => {
    await expect(read("a.txt\0.png")).rejects.toThrow(/contains a NUL byte/);
  });

  it("refuses a NUL byte in a write and creates nothing", async () => {
    await expect(write("x\0y", "x")).rejects.toThrow(/NUL/);
    expect(readdirSync(world.root)).toEqual([]);
  });

  it("refuses a newline, which would forge lines in listings and approval prompts", () => {
    expect(() => parts("a\nb.txt")).toThrow(/control character \(U\+000A\)/);
  });
});

describe("symlink escape, final component (CVE-2025-53109)", () => {
  it("refuses to read a link to a file outside", async () => {
    symlinkSync(world.secret, inRoot("link.txt"));
    await expect(read("link.txt")).rejects.toThrow(/link\.txt is a symbolic link; links are never followed/);
  });

  it("refuses to read a link even when it points inside", async () => {
    writeFileSync(inRoot("real.txt"), "inside");
    symlinkSync("real.txt", inRoot("alias.txt"));
    await expect(read("alias.txt")).rejects.toThrow(/symbolic link/);
  });

  it("refuses to write through a link to a file outside, leaving it untouched", async () => {
    symlinkSync(world.secret, inRoot("link.txt"));
    await expect(write("link.txt", "pwned", true)).rejects.toThrow(/is a symbolic link; only a regular file can be replaced/);
    outsideUntouched();
  });

  it("does not create the target of a dangling link pointing outside", async () => {
    symlinkSync(join(world.outside, "created.txt"), inRoot("dangling.txt"));
    await expect(write("dangling.txt", "x", true)).rejects.toThrow(/symbolic link/);
    outsideUntouched();
  });

  it("deletes a link itself, never the directory it points to", async () => {
    symlinkSync(world.outside, inRoot("out"));
    expect(await remove(fs, parts("out"), "path", true)).toEqual({ files: 1, directories: 0 });
    expect(existsSync(inRoot("out"))).toBe(false);
    outsideUntouched();
  });

  it("refuses to copy a link, and skips links inside a copied directory", async () => {
    symlinkSync(world.secret, inRoot("link.txt"));
    await expect(copy(fs, parts("link.txt"), parts("copy.txt"), new WriteBudget(QUOTAS), false)).rejects.toThrow(/symbolic link/);
    mkdirSync(inRoot("d"));
    symlinkSync(world.secret, inRoot("d", "leak.txt"));
    const copied = await copy(fs, parts("d"), parts("d2"), new WriteBudget(QUOTAS), false);
    expect(copied.skipped).toEqual([{ path: "d/leak.txt", reason: "a symbolic link; not copied" }]);
    expect(readdirSync(inRoot("d2"))).toEqual([]);
  });
});

describe("symlink escape, intermediate component", () => {
  beforeEach(() => symlinkSync(world.outside, inRoot("out")));

  it("refuses to read through a linked directory", async () => {
    await expect(read("out/secret.txt")).rejects.toThrow(/path: out is a symbolic link/);
  });

  it("refuses to write through a linked directory and creates nothing outside", async () => {
    await expect(write("out/new.txt", "x")).rejects.toThrow(/out is a symbolic link/);
    outsideUntouched();
  });

  it("refuses to create directories through a linked directory", async () => {
    await expect(fs.openDir(parts("out/a/b"), "path", true)).rejects.toThrow(/out is a symbolic link/);
    outsideUntouched();
  });

  it("reports a linked directory in a walk without entering it", async () => {
    const seen: WalkEntry[] = [];
    await walk(fs, [], "path", { maxDepth: 10 }, (e) => void seen.push(e));
    expect(seen.map((e) => [e.path, e.kind])).toEqual([["out", "symlink"]]);
  });

  it("deletes a tree holding a link to outside without touching what the link points to", async () => {
    mkdirSync(inRoot("tree", "sub"), { recursive: true });
    symlinkSync(world.outside, inRoot("tree", "sub", "escape"));
    expect(await remove(fs, parts("tree"), "path", true)).toEqual({ files: 1, directories: 2 });
    outsideUntouched();
  });

  it("refuses to move a file into a linked directory", async () => {
    writeFileSync(inRoot("f.txt"), "f");
    await expect(move(fs, parts("f.txt"), parts("out/f.txt"), false)).rejects.toThrow(/destination: out is a symbolic link/);
    outsideUntouched();
  });
});

describe("a link swapped in between check and use (TOCTOU)", () => {
  // A separate process swaps the names as fast as it can while the reads and writes run: a real
  // directory and a link to the outside directory take turns at "a", and a file and a link to the
  // secret take turns at "a/f.txt". No read may ever return the secret and no write may land outside.
  const SWAPPER = `
    const fs = require("node:fs"); const [root, outside, ms] = process.argv.slice(1);
    const end = Date.now() + Number(ms); let n = 0;
    while (Date.now() < end) {
      fs.renameSync(root + "/a", root + "/a-real"); fs.renameSync(root + "/a-link", root + "/a");
      fs.renameSync(root + "/a-real/f.txt", root + "/a-real/f-real"); fs.renameSync(root + "/a-real/f-link", root + "/a-real/f.txt");
      fs.renameSync(root + "/a", root + "/a-link"); fs.renameSync(root + "/a-real", root + "/a");
      fs.renameSync(root + "/a/f.txt", root + "/a/f-link"); fs.renameSync(root + "/a/f-real", root + "/a/f.txt");
      n++;
    }
    process.stdout.write(String(n));`;

  function startSwapping(ms: number): Promise<number> {
    mkdirSync(inRoot("a"));
    writeFileSync(inRoot("a", "f.txt"), "inside");
    symlinkSync(world.outside, inRoot("a-link"));
    symlinkSync(world.secret, inRoot("a", "f-link"));
    const child = spawn(process.execPath, ["-e", SWAPPER, world.root, world.outside, String(ms)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    return new Promise((resolve) => child.once("exit", () => resolve(Number(out))));
  }

  it("never reads the outside file while links are swapped during 2,000 reads", async () => {
    const swaps = startSwapping(1_500);
    const outcomes = { inside: 0, refused: 0 };
    for (let i = 0; i < 2_000; i++) {
      try {
        const text = await read("a/f.txt");
        expect(text).toBe("inside");
        outcomes.inside++;
      } catch (err) {
        expect((err as Error).message).not.toContain("secret");
        outcomes.refused++;
      }
    }
    expect(await swaps).toBeGreaterThan(10);
    // Both outcomes occur, so the swaps really raced the reads (about 1 in 7 reads lands on the real file).
    expect(outcomes.inside).toBeGreaterThan(0);
    expect(outcomes.refused).toBeGreaterThan(0);
    outsideUntouched();
  });

  it("never writes outside while links are swapped during 500 writes", async () => {
    const swaps = startSwapping(1_500);
    // Without creating parents: a directory made at "a" while it is briefly absent would stop the swaps.
    for (let i = 0; i < 500; i++) await write(`a/new-${i}.txt`, "x", false, false).catch(() => undefined);
    expect(await swaps).toBeGreaterThan(10);
    outsideUntouched();
  });
});

describe("hard links", () => {
  it("refuses to read a hard link to a file outside", async () => {
    linkSync(world.secret, inRoot("hard.txt"));
    await expect(read("hard.txt")).rejects.toThrow(/hard\.txt has 2 hard links; hard-linked files are refused/);
  });

  it("replaces a hard-linked file by a new file, leaving the other link's content untouched", async () => {
    linkSync(world.secret, inRoot("hard.txt"));
    await write("hard.txt", "replaced", true);
    expect(readFileSync(inRoot("hard.txt"), "utf8")).toBe("replaced");
    outsideUntouched();
  });

  it("refuses to copy a hard-linked file", async () => {
    linkSync(world.secret, inRoot("hard.txt"));
    await expect(copy(fs, parts("hard.txt"), parts("copy.txt"), new WriteBudget(QUOTAS), false)).rejects.toThrow(/hard links/);
    expect(existsSync(inRoot("copy.txt"))).toBe(false);
  });
});

describe("device files, sockets and FIFOs", () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it("refuses to read a FIFO without blocking on it", async () => {
    execFileSync("mkfifo", [inRoot("pipe")]);
    await expect(read("pipe")).rejects.toThrow(/pipe is a FIFO \(named pipe\); only regular files and directories are handled/);
  });

  it("refuses to read a Unix socket", async () => {
    server = createServer();
    await new Promise<void>((r) => server!.listen(inRoot("sock"), r));
    await expect(read("sock")).rejects.toThrow(/sock is a socket/);
  });

  it("refuses to read a device file", async (ctx) => {
    try {
      execFileSync("mknod", [inRoot("null"), "c", "1", "3"], { stdio: "ignore" });
    } catch {
      ctx.skip(); // making a device needs CAP_MKNOD (root); Selu's containers have none, so none exist there
    }
    await expect(read("null")).rejects.toThrow(/null is a device file/);
  });

  it("refuses to write over a FIFO", async () => {
    execFileSync("mkfifo", [inRoot("pipe")]);
    await expect(write("pipe", "x", true)).rejects.toThrow(/is a FIFO \(named pipe\); only a regular file can be replaced/);
  });

  it("skips FIFOs and sockets inside a copied directory", async () => {
    mkdirSync(inRoot("d"));
    execFileSync("mkfifo", [inRoot("d", "pipe")]);
    writeFileSync(inRoot("d", "ok.txt"), "ok");
    const copied = await copy(fs, parts("d"), parts("d2"), new WriteBudget(QUOTAS), false);
    expect(copied.files).toBe(1);
    expect(copied.skipped).toEqual([{ path: "d/pipe", reason: "not a regular file; not copied" }]);
  });
});

describe("case and Unicode normalisation tricks", () => {
  it("treats fullwidth dots (U+FF0E) as a literal name, never as ..", async () => {
    await write("\uff0e\uff0e/x.txt", "fullwidth");
    expect(readFileSync(inRoot("\uff0e\uff0e", "x.txt"), "utf8")).toBe("fullwidth");
    outsideUntouched();
  });

  it("keeps NFC and NFD spellings apart: writing one never touches the other", async () => {
    writeFileSync(inRoot("caf\u00e9.txt"), "nfc");
    await write("cafe\u0301.txt", "nfd");
    expect(readFileSync(inRoot("caf\u00e9.txt"), "utf8")).toBe("nfc");
    expect(await read("cafe\u0301.txt")).toBe("nfd");
  });

  it("refuses a right-to-left override that disguises an extension", () => {
    expect(() => parts("invoice\u202efdp.exe")).toThrow(/invisible formatting character, which can disguise a name, \(U\+202E\)/);
  });

  it("refuses a zero-width space that makes two names look alike", () => {
    expect(() => parts("report\u200b.txt")).toThrow(/U\+200B/);
  });

  it("refuses a lone surrogate, which would be written as U+FFFD and alias another name", () => {
    expect(() => parts("a\ud800.txt")).toThrow(/not well-formed Unicode/);
  });

  it("does not fold case: SECRET.TXT is not secret.txt, and the upper-cased root path is still absolute", async () => {
    writeFileSync(inRoot("secret.txt"), "lower");
    await expect(read("SECRET.TXT")).rejects.toThrow(/does not exist/);
    await expect(read(world.root.toUpperCase() + "/secret.txt")).rejects.toThrow(/is absolute/);
  });
});

describe("very long paths", () => {
  it("refuses a 5,000-byte path, with the limit in words", () => {
    expect(() => parts("a/".repeat(2_500))).toThrow(/is 5000 bytes long; paths are limited to 4096 bytes/);
  });

  it("refuses a 256-byte name", () => {
    expect(() => parts(`${"n".repeat(256)}.txt`)).toThrow(/over 255 bytes/);
  });

  it("refuses 65 levels and handles 64", async () => {
    expect(() => parts(Array(65).fill("d").join("/"))).toThrow(/65 levels deep; at most 64/);
    await write(`${Array(63).fill("d").join("/")}/f.txt`, "deep");
    expect(await read(`${Array(63).fill("d").join("/")}/f.txt`)).toBe("deep");
  });

  it("handles a 255-byte name of multi-byte characters", async () => {
    const name = "é".repeat(127); // 254 bytes
    await write(name, "long");
    expect(await read(name)).toBe("long");
  });
});

describe("quotas, enforced while writing", () => {
  it("stops a file at the per-file limit and leaves no partial file", async () => {
    const chunks = (async function* () {
      for (let i = 0; i < 10; i++) yield Buffer.alloc(200 * 1024);
    })();
    await expect(writeAtomic(fs, parts("big.bin"), chunks, new WriteBudget(QUOTAS), "path", {})).rejects.toThrow(/larger than the 1 MiB limit per file/);
    expect(readdirSync(world.root)).toEqual([]);
  });

  it("stops the call at its file count", async () => {
    const budget = new WriteBudget({ ...QUOTAS, maxFilesPerCall: 2 });
    await writeAtomic(fs, parts("1"), Buffer.from("1"), budget, "path");
    await writeAtomic(fs, parts("2"), Buffer.from("2"), budget, "path");
    await expect(writeAtomic(fs, parts("3"), Buffer.from("3"), budget, "path")).rejects.toThrow(/at most 2 files and directories/);
    expect(readdirSync(world.root).sort()).toEqual(["1", "2"]);
  });

  it("stops the call at its byte total across files", async () => {
    const budget = new WriteBudget({ ...QUOTAS, maxBytesPerCall: 1500 });
    await writeAtomic(fs, parts("1"), Buffer.alloc(1000), budget, "path");
    await expect(writeAtomic(fs, parts("2"), Buffer.alloc(1000), budget, "path")).rejects.toThrow(/at most 1.5 KiB in all/);
    expect(readdirSync(world.root)).toEqual(["1"]);
  });
});
