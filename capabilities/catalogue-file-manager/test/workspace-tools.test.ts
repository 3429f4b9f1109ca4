// Every workspace tool end to end: the production entrypoint under the container constraints with a
// real directory as /workspace, called through the orchestrator double as Selu calls it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Orchestrator } from "@selu-catalogue/testkit/orchestrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fails, ok, startWorld, type World } from "./harness.js";

const SELU_RESULT_BOUND = 49_152;
let world: World;
let o: Orchestrator;
const ws = (...p: string[]) => join(world.workspace, ...p);
const call = (tool: string, args: Record<string, unknown>) => ok(o, tool, args);
const resultBytes = () => {
  const last = o.transcript.filter((e) => e.kind === "raw-result").at(-1) as { result: unknown };
  return Buffer.byteLength(JSON.stringify(last.result));
};

beforeAll(async () => {
  world = await startWorld();
  o = await world.orchestrator();
}, 30_000);
afterAll(() => world?.close());

describe("write_file and read_file", () => {
  it("writes a file atomically, refuses to replace it without overwrite, and reads it back", async () => {
    expect(await call("write_file", { path: "notes/todo.txt", content: "buy milk\nwrite tests\n" })).toEqual({ path: "notes/todo.txt", bytes_written: 21 });
    expect(readFileSync(ws("notes", "todo.txt"), "utf8")).toBe("buy milk\nwrite tests\n");
    expect(await fails(o, "write_file", { path: "notes/todo.txt", content: "x" })).toMatch(/already exists; pass overwrite: true/);
    expect(await call("read_file", { path: "notes/todo.txt" })).toMatchObject({ content: "buy milk\nwrite tests", encoding: "utf-8", start_line: 1, end_line: 2, total_lines: 2 });
  });

  it("pages a 2 MB file within Selu's result bound and continues from next_start_line", async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `line ${i + 1} ${"é".repeat(20)}`);
    writeFileSync(ws("big.txt"), lines.join("\n"));
    const first = await call("read_file", { path: "big.txt" });
    expect(resultBytes()).toBeLessThan(SELU_RESULT_BOUND);
    expect(first.next_start_line).toBeGreaterThan(100);
    const second = await call("read_file", { path: "big.txt", start_line: first.next_start_line, line_count: 2 });
    expect(second.content).toBe(`${lines[first.next_start_line - 1]}\n${lines[first.next_start_line]}`);
    expect(await call("read_file", { path: "big.txt", tail: 2 })).toMatchObject({ content: `${lines[39_998]}\n${lines[39_999]}`, start_line: 39_999 });
  });

  it("detects Windows-1252 and UTF-16 text and refuses binary files, pointing to export_file", async () => {
    writeFileSync(ws("latin.txt"), Buffer.from("Grüße aus Köln", "latin1"));
    expect(await call("read_file", { path: "latin.txt" })).toMatchObject({ content: "Grüße aus Köln", encoding: "windows-1252" });
    writeFileSync(ws("utf16.txt"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("héllo\nwörld", "utf16le")]));
    expect(await call("read_file", { path: "utf16.txt" })).toMatchObject({ content: "héllo\nwörld", encoding: "utf-16le" });
    writeFileSync(ws("blob.bin"), Buffer.from([1, 2, 0, 3]));
    expect(await fails(o, "read_file", { path: "blob.bin" })).toMatch(/looks binary .*export_file/);
  });

  it("cuts a single 100 KB line to fit and says so", async () => {
    writeFileSync(ws("minified.json"), `[${"1,".repeat(50_000)}1]`);
    const page = await call("read_file", { path: "minified.json" });
    expect(resultBytes()).toBeLessThan(SELU_RESULT_BOUND);
    expect(page.lines_cut).toBe(1);
  });

  it("reads several files at once, reporting a failure without failing the others", async () => {
    const { files } = await call("read_files", { paths: ["notes/todo.txt", "missing.txt", "../etc/passwd"] });
    expect(files[0]).toMatchObject({ path: "notes/todo.txt", content: "buy milk\nwrite tests" });
    expect(files[1]).toEqual({ path: "missing.txt", error: "paths[1]: missing.txt does not exist" });
    expect(files[2].error).toMatch(/paths\[2\]: .* contains "\.\."/);
  });
});

describe("listing and searching", () => {
  beforeAll(() => {
    mkdirSync(ws("many"));
    for (let i = 0; i < 3_000; i++) writeFileSync(ws("many", `file-${String(i).padStart(4, "0")}-${"x".repeat(30)}.txt`), "x".repeat(i % 7));
    mkdirSync(ws("src", "lib", "deep"), { recursive: true });
    writeFileSync(ws("src", "main.ts"), "import { helper } from './lib/helper';\nconsole.log(helper());\n");
    writeFileSync(ws("src", "lib", "helper.ts"), "export function helper() {\n  return 'TODO: real value';\n}\n");
    writeFileSync(ws("src", "lib", "deep", "notes.md"), "# Notes\ntodo: more\n");
    mkdirSync(ws("src", "node_modules"));
    writeFileSync(ws("src", "node_modules", "dep.ts"), "TODO in a dependency\n");
    symlinkSync("/etc", ws("src", "etc-link"));
  });

  it("pages 3,000 entries within Selu's result bound", async () => {
    const first = await call("list_directory", { path: "many", limit: 1000 });
    expect(resultBytes()).toBeLessThan(SELU_RESULT_BOUND);
    expect(first.total).toBe(3_000);
    const seen = new Set<string>(first.entries.map((e: { name: string }) => e.name));
    for (let offset = first.next_offset; offset !== null; ) {
      const page = await call("list_directory", { path: "many", limit: 1000, offset });
      page.entries.forEach((e: { name: string }) => seen.add(e.name));
      offset = page.next_offset;
    }
    expect(seen.size).toBe(3_000);
  });

  it("sorts by size, largest first, and shows links as links", async () => {
    const bySize = await call("list_directory", { path: "many", sort: "size", descending: true, limit: 3 });
    expect(bySize.entries.map((e: { size: number }) => e.size)).toEqual([6, 6, 6]);
    const src = await call("list_directory", { path: "src" });
    expect(src.entries.map((e: { name: string; type: string }) => `${e.name}:${e.type}`)).toEqual(["etc-link:symlink", "lib:directory", "main.ts:file", "node_modules:directory"]);
  });

  it("draws a tree with excludes, never entering a link", async () => {
    const tree = await call("directory_tree", { path: "src", exclude: ["node_modules"] });
    expect(tree.tree).toBe(["etc-link -> (link, not followed)", "lib/", "  deep/", "    notes.md (19 B)", "  helper.ts (58 B)", "main.ts (62 B)"].join("\n"));
  });

  it("finds files by glob at any depth, with excludes", async () => {
    expect((await call("search_files", { pattern: "*.ts", path: "src", exclude: ["node_modules"] })).matches).toEqual(["src/main.ts", "src/lib/helper.ts"]);
    expect((await call("search_files", { pattern: "lib/**/*.md", path: "src" })).matches).toEqual(["src/lib/deep/notes.md"]);
  });

  it("greps literal text with line numbers, case-insensitively, and by regular expression", async () => {
    expect((await call("grep", { pattern: "TODO", path: "src", exclude: ["node_modules"] })).matches).toEqual([{ path: "src/lib/helper.ts", line: 2, text: "  return 'TODO: real value';" }]);
    const folded = await call("grep", { pattern: "todo", path: "src", case_sensitive: false, include: ["*.md", "*.ts"], exclude: ["node_modules"] });
    expect(folded.matches.map((m: { path: string; line: number }) => `${m.path}:${m.line}`)).toEqual(["src/lib/helper.ts:2", "src/lib/deep/notes.md:2"]);
    expect((await call("grep", { pattern: "^export function \\w+\\(", path: "src", regex: true })).matches).toEqual([{ path: "src/lib/helper.ts", line: 1, text: "export function helper() {" }]);
  });

  it("finds a match at the very start of a file, as a literal and as a pattern", async () => {
    writeFileSync(ws("start.txt"), "FIRST line\nsecond\n");
    for (const args of [{ pattern: "FIRST" }, { pattern: "^FIRST", regex: true }, { pattern: "first", case_sensitive: false }]) {
      expect((await call("grep", { path: "start.txt", ...args })).matches, JSON.stringify(args)).toEqual([{ path: "start.txt", line: 1, text: "FIRST line" }]);
    }
  });

  it("answers a catastrophic pattern at once instead of backtracking for hours", async () => {
    writeFileSync(ws("aaaa.txt"), `${"a".repeat(50_000)}!`);
    const started = Date.now();
    expect((await call("grep", { pattern: "(a+)+$", path: "aaaa.txt", regex: true })).matches).toEqual([]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await fails(o, "grep", { pattern: "(a)\\1", regex: true })).toMatch(/pattern: uses backreferences or lookaround/);
  });

  it("reports file info without following a link", async () => {
    expect(await call("get_file_info", { path: "src/etc-link" })).toMatchObject({ path: "src/etc-link", type: "symlink" });
    expect(await call("get_file_info", { path: "src/main.ts" })).toMatchObject({ type: "file", size: 62, mime_type: "text/plain; charset=utf-8" });
  });
});

describe("editing, moving, copying and deleting", () => {
  it("shows a unified diff on a dry run without writing, then applies it", async () => {
    writeFileSync(ws("config.ini"), "[server]\nport = 80\nhost = a\n");
    const dry = await call("edit_file", { path: "config.ini", edits: [{ old_text: "port = 80", new_text: "port = 8080" }], dry_run: true });
    expect(dry).toEqual({ path: "config.ini", applied: false, diff: "--- a/config.ini\n+++ b/config.ini\n@@ -1,4 +1,4 @@\n [server]\n-port = 80\n+port = 8080\n host = a\n \n" });
    expect(readFileSync(ws("config.ini"), "utf8")).toContain("port = 80\n");
    await call("edit_file", { path: "config.ini", edits: [{ old_text: "port = 80", new_text: "port = 8080" }] });
    expect(readFileSync(ws("config.ini"), "utf8")).toBe("[server]\nport = 8080\nhost = a\n");
    expect(await fails(o, "edit_file", { path: "config.ini", edits: [{ old_text: "nope", new_text: "" }] })).toMatch(/edits\[0\]\.old_text: not found in config\.ini/);
  });

  it("moves, copies and deletes, a non-empty directory only with recursive", async () => {
    await call("create_directory", { path: "tree/a/b" });
    writeFileSync(ws("tree", "a", "b", "f.txt"), "f");
    await call("copy", { source: "tree", destination: "tree-copy" });
    expect(readFileSync(ws("tree-copy", "a", "b", "f.txt"), "utf8")).toBe("f");
    await call("move", { source: "tree-copy/a/b/f.txt", destination: "moved/f.txt" });
    expect(existsSync(ws("moved", "f.txt"))).toBe(true);
    expect(await fails(o, "delete", { path: "tree" })).toMatch(/is a directory that is not empty; pass recursive: true/);
    expect(await call("delete", { path: "tree", recursive: true })).toEqual({ path: "tree", deleted: { files: 1, directories: 3 } });
    expect(existsSync(ws("tree"))).toBe(false);
  });

  it("can't write outside /workspace even by a path the sandbox would allow (/tmp)", async () => {
    expect(await fails(o, "write_file", { path: "/tmp/x.txt", content: "x" })).toMatch(/is absolute/);
  });
});

describe("artifacts and archives", () => {
  it("imports an attachment and exports it back byte for byte", async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    const { artifactId } = o.vault.store("user-1", "data.bin", "application/octet-stream", bytes);
    expect(await call("import_attachment", { attachments: [{ artifact_id: artifactId }], directory: "in" })).toEqual({ saved: [{ path: "in/data.bin", size_bytes: 70_000 }] });
    const exported = await call("export_file", { path: "in/data.bin" });
    const back = o.vault.take("user-1", exported.artifact.artifact_id);
    if ("error" in back) throw new Error(back.error);
    expect(back.filename).toBe("data.bin");
    expect(back.bytes.equals(bytes)).toBe(true);
  });

  it("zips into the workspace in a form Info-ZIP's unzip accepts, and unzips it again", async () => {
    mkdirSync(ws("pack", "sub"), { recursive: true });
    writeFileSync(ws("pack", "a.txt"), "alpha\n".repeat(1000));
    writeFileSync(ws("pack", "sub", "b.bin"), Buffer.alloc(5000, 7));
    expect(await call("zip", { paths: ["pack"], destination: "out/pack.zip" })).toMatchObject({ path: "out/pack.zip", entries: 4 });
    expect(execFileSync("unzip", ["-t", ws("out", "pack.zip")]).toString()).toContain("No errors detected");
    await call("unzip", { source: "out/pack.zip", destination: "unpacked" });
    expect(readFileSync(ws("unpacked", "pack", "a.txt"), "utf8")).toBe("alpha\n".repeat(1000));
    expect(readFileSync(ws("unpacked", "pack", "sub", "b.bin")).equals(Buffer.alloc(5000, 7))).toBe(true);
  });

  it("zips a directory into itself without packing its own half-written output", async () => {
    mkdirSync(ws("self"));
    writeFileSync(ws("self", "a.txt"), "a".repeat(100_000));
    await call("zip", { paths: ["self"], destination: "self/self.zip" });
    const listing = execFileSync("unzip", ["-Z1", ws("self", "self.zip")])
      .toString()
      .trim()
      .split("\n");
    expect(listing).toEqual(["self/", "self/a.txt"]);
  });

  it("unzips an attached archive made by Info-ZIP's zip, and zips to an artifact", async () => {
    mkdirSync(ws("src-zip"));
    writeFileSync(ws("src-zip", "r.txt"), "from zip(1)");
    execFileSync("zip", ["-qr", "../made.zip", "."], { cwd: ws("src-zip") });
    const { artifactId } = o.vault.store("user-1", "made.zip", "application/zip", readFileSync(ws("made.zip")));
    await call("unzip", { attachments: [{ artifact_id: artifactId }], destination: "from-attachment" });
    expect(readFileSync(ws("from-attachment", "r.txt"), "utf8")).toBe("from zip(1)");
    const zipped = await call("zip", { paths: ["from-attachment/r.txt"], filename: "r.zip" });
    expect(zipped.artifact).toMatchObject({ filename: "r.zip", mime_type: "application/zip" });
  });
});
