import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { main } from "./cli.js";
import type { CapabilityDescription } from "./description.js";
import { TOOL_MANIFEST, toolCode } from "./test-fixtures.js";
import { GENERATED_NOTE } from "./write-tools.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "selu-manifest-cli-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A capability directory as the CLI sees it: manifest.yaml and a built dist/capability.js. */
function capability(name: string, manifest: string | undefined, code: CapabilityDescription | "none" | string = toolCode()): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  if (manifest !== undefined) writeFileSync(join(dir, "manifest.yaml"), manifest);
  if (code !== "none") {
    mkdirSync(join(dir, "dist"));
    const source = typeof code === "string" ? code : `export default { describe() { return ${JSON.stringify(code)}; } };\n`;
    writeFileSync(join(dir, "dist", "capability.js"), source);
  }
  return dir;
}

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const status = await main(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { status, out, err };
}

describe("selu-manifest check", () => {
  it("prints one OK line and exits 0 when manifest and code agree", async () => {
    const dir = capability("demo", TOOL_MANIFEST);
    expect(await run("check", dir)).toEqual({ status: 0, out: [`${join(dir, "manifest.yaml")}: OK`], err: [] });
  });

  it("prints every problem on its own line, prefixed with file and line, and exits 1", async () => {
    const text = TOOL_MANIFEST.replace("class: tool", "class: tool\nimagee: x").replace("    recommended_policy: allow", "    recommend_policy: allow");
    const dir = capability("demo", text);
    const file = join(dir, "manifest.yaml");
    const { status, out, err } = await run("check", dir);
    expect(status).toBe(1);
    expect(out).toEqual([
      `${file}:4: imagee: unknown key (Selu ignores it silently); did you mean image?`,
      `${file}:10: tools[0].recommended_policy: is "block", the code says "allow"`,
      `${file}:17: tools[0].recommend_policy: unknown key (Selu ignores it silently); did you mean recommended_policy?`,
    ]);
    expect(err).toEqual([`hint: run \`selu-manifest write ${dir}\` to regenerate tools and credentials from the code`]);
  });

  it("requires the id to equal the directory name", async () => {
    const dir = capability("not-demo", TOOL_MANIFEST, { ...toolCode(), id: "demo" });
    const { status, out } = await run("check", dir);
    expect(status).toBe(1);
    expect(out).toEqual([`${join(dir, "manifest.yaml")}:2: id: is "demo": expected the directory name "not-demo"`]);
  });

  it("reports a YAML syntax error with its line", async () => {
    const dir = capability("demo", "id: demo\nclass: [tool\n");
    const { status, out } = await run("check", dir);
    expect(status).toBe(1);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(new RegExp(`^${join(dir, "manifest.yaml")}:3: \\(document\\): YAML: `));
  });

  it("says to build first when dist/capability.js is missing, and still checks the manifest", async () => {
    const dir = capability("demo", TOOL_MANIFEST.replace("class: tool", "class: tool\nimagee: x"), "none");
    const { status, out } = await run("check", dir);
    expect(status).toBe(1);
    expect(out).toEqual([
      `${join(dir, "dist", "capability.js")}: not found; build the capability first (pnpm build)`,
      `${join(dir, "manifest.yaml")}:4: imagee: unknown key (Selu ignores it silently); did you mean image?`,
    ]);
  });

  it("refuses code whose default export has no describe()", async () => {
    const dir = capability("demo", TOOL_MANIFEST, "export default { tools: {} };\n");
    const { status, out } = await run("check", dir);
    expect(status).toBe(1);
    expect(out).toEqual([`${join(dir, "dist", "capability.js")}: expected a default export with a describe() method (export default defineCapability(...))`]);
  });

  it("refuses a describe() result that isn't a capability description", async () => {
    const dir = capability("demo", TOOL_MANIFEST, "export default { describe: () => ({ id: 'demo', tools: [{ name: 'x' }], credentials: [] }) };\n");
    const { out } = await run("check", dir);
    expect(out[0]).toMatch(/capability\.js: describe\(\) returned an invalid description at tools\[0\]\.description: /);
  });

  it("reports a missing manifest.yaml", async () => {
    const dir = capability("demo", undefined);
    const { status, out } = await run("check", dir);
    expect(status).toBe(1);
    expect(out[0]).toMatch(new RegExp(`^${join(dir, "manifest.yaml")}: cannot be read: ENOENT`));
  });

  it("checks every directory given and fails if any fails", async () => {
    const good = capability("demo", TOOL_MANIFEST);
    const bad = capability("other", TOOL_MANIFEST.replace("id: demo", "id: other"), { ...toolCode(), id: "other", tools: [] });
    const { status, out } = await run("check", good, bad);
    expect(status).toBe(1);
    expect(out).toEqual([`${join(good, "manifest.yaml")}: OK`, `${join(bad, "manifest.yaml")}:9: tools[0]: tool "do_it" is not defined in the code: expected it removed`]);
  });
});

describe("selu-manifest write", () => {
  it("rewrites tools and credentials from the code, keeps the rest, then checks", async () => {
    const before = `${TOOL_MANIFEST}resources:\n  max_memory_mb: 256 # measured\n`;
    const code = toolCode();
    code.tools[0]!.description = "Does it, now described better";
    code.credentials = [];
    const dir = capability("demo", before, code);
    const file = join(dir, "manifest.yaml");
    expect(await run("write", dir)).toEqual({ status: 0, out: [`${file}: wrote tools and credentials from the code`, `${file}: OK`], err: [] });
    const after = readFileSync(file, "utf8");
    expect(after).toContain("# The manifest Selu reads.\n");
    expect(after).toContain("  max_memory_mb: 256 # measured\n");
    expect(after).toContain(`#${GENERATED_NOTE}\ntools:`);
    expect(after).toContain("description: Does it, now described better");
    expect(await run("check", dir)).toMatchObject({ status: 0 });
    expect(await run("write", dir)).toEqual({ status: 0, out: [`${file}: OK`], err: [] });
    expect(readFileSync(file, "utf8")).toBe(after);
  });

  it("still reports what writing can't fix, such as an unknown key", async () => {
    const dir = capability("demo", `${TOOL_MANIFEST}netwrk: {}\n`);
    const { status, out } = await run("write", dir);
    expect(status).toBe(1);
    // The line is in the file as written, which now has the generated notes.
    expect(out.at(-1)).toMatch(/manifest\.yaml:\d+: netwrk: unknown key \(Selu ignores it silently\); did you mean network\?$/);
  });

  it("leaves a manifest that isn't YAML untouched", async () => {
    const dir = capability("demo", "id: [demo\n");
    const { status, out } = await run("write", dir);
    expect(status).toBe(1);
    expect(out[0]).toMatch(/manifest\.yaml: manifest\.yaml is not valid YAML, so it can't be rewritten/);
    expect(readFileSync(join(dir, "manifest.yaml"), "utf8")).toBe("id: [demo\n");
  });
});

describe("selu-manifest arguments", () => {
  it.each([[[]], [["check"]], [["lint", "x"]], [["check", "--fast", "x"]]])("exits 2 with usage for %j", async (argv) => {
    const { status, out, err } = await run(...argv);
    expect(status).toBe(2);
    expect(out).toEqual([]);
    expect(err.join("\n")).toContain("usage: selu-manifest check <capability-dir>...");
  });

  it("prints usage for --help and exits 0", async () => {
    const { status, out } = await run("--help");
    expect(status).toBe(0);
    expect(out[0]).toMatch(/^usage: selu-manifest/);
  });
});

describe("the built selu-manifest binary", () => {
  const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

  it("runs as a process: exit status and output", async () => {
    if (!existsSync(bin)) throw new Error(`${bin} is missing: run pnpm build first (turbo's test task does)`);
    const good = capability("demo", TOOL_MANIFEST);
    const bad = capability("broken", TOOL_MANIFEST.replace("id: demo", "id: broken"), { ...toolCode(), id: "broken", tools: [] });
    const ok = await promisify(execFile)(process.execPath, [bin, "check", good]);
    expect(ok.stdout).toBe(`${join(good, "manifest.yaml")}: OK\n`);
    const failed = await promisify(execFile)(process.execPath, [bin, "check", bad]).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe(`${join(bad, "manifest.yaml")}:9: tools[0]: tool "do_it" is not defined in the code: expected it removed\n`);
    expect(failed.stderr).toContain("hint: run `selu-manifest write");
  });
});
