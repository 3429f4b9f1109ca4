import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { asciiSource } from "./one-byte-sources.js";

// Characters outside ASCII where a package's JavaScript has them: in strings, templates, regular
// expressions (with and without the u flag) and comments; one beyond U+FFFF (two UTF-16 units).
const MODULE = `// ∞ and … in a comment, é too
export const text = "Grüße … ∞ тест ﬅ 😀";
export const template = \`© \${1 + 1} – 😀\`;
export const pattern = /ﬅ|ſt/.test("ſt") && /😀/u.test("😀") && /[тест]+/.exec("xтестx")[0];
`;
const COMMONJS = `"use strict"; /* ∞ */ exports.text = "naïve … 😀";`;

const dir = mkdtempSync(join(tmpdir(), "one-byte-sources-"));
mkdirSync(join(dir, "node_modules", "wide"), { recursive: true });
writeFileSync(join(dir, "node_modules", "wide", "index.mjs"), MODULE);
writeFileSync(join(dir, "node_modules", "wide", "common.cjs"), COMMONJS);
writeFileSync(join(dir, "outside.mjs"), MODULE);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  /** What each module exported. */
  values: Record<string, unknown>;
  /** Of each module loaded from node_modules, or the fixture outside it: whether its final source is ASCII. */
  ascii: Record<string, boolean>;
}

// A fresh Node process, since the hook changes module loading for the whole process. The recording hook is
// registered last, so it runs first and sees what the hooks before it made of each source.
function run(hooked: boolean, imports: Record<string, string>): Run {
  const hook = new URL("./one-byte-sources.ts", import.meta.url).href;
  const script = `
    import { registerHooks } from "node:module";
    import { keepSourcesOneByte } from ${JSON.stringify(hook)};
    if (${hooked}) keepSourcesOneByte();
    const ascii = {};
    registerHooks({ load(url, context, next) {
      const loaded = next(url, context);
      if (loaded.source != null && /node_modules|outside/.test(url)) ascii[url.includes("/node_modules/") ? url.split("/node_modules/").pop() : url.split("/").pop()] = /^[\\0-\\x7f]*$/.test(Buffer.from(loaded.source).toString("latin1"));
      return loaded;
    } });
    const values = {};
    for (const [name, specifier] of Object.entries(${JSON.stringify(imports)})) values[name] = { ...(await import(specifier)) };
    console.log(JSON.stringify({ values, ascii }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return JSON.parse(out) as Run;
}

describe("keepSourcesOneByte", () => {
  const fixtures = {
    module: pathToFileURL(join(dir, "node_modules", "wide", "index.mjs")).href,
    commonjs: pathToFileURL(join(dir, "node_modules", "wide", "common.cjs")).href,
    outside: pathToFileURL(join(dir, "outside.mjs")).href,
  };

  it("loads a package's characters outside ASCII as \\u escapes that mean the same, and leaves other code as it is", () => {
    const plain = run(false, fixtures);
    const hooked = run(true, fixtures);
    expect(plain.values.module).toEqual({ text: "Grüße … ∞ тест ﬅ 😀", template: "© 2 – 😀", pattern: "тест" });
    expect(hooked.values).toEqual(plain.values);
    expect(plain.ascii).toEqual({ "wide/index.mjs": false, "wide/common.cjs": false, "outside.mjs": false });
    // Outside node_modules (our own code, bundled to ASCII) nothing is changed.
    expect(hooked.ascii).toEqual({ "wide/index.mjs": true, "wide/common.cjs": true, "outside.mjs": false });
  });

  it("leaves an ASCII source alone and escapes each UTF-16 unit of the others, from bytes or a string", () => {
    expect(asciiSource(Buffer.from("export const a = 1;"))).toBeUndefined();
    expect(asciiSource("export const a = 1;")).toBeUndefined();
    const escaped = '"\\u00e9\\u2026\\ud83d\\ude00"';
    expect(asciiSource(new TextEncoder().encode('"é…😀"'))?.toString("latin1")).toBe(escaped);
    expect(asciiSource('"é…😀"')?.toString("latin1")).toBe(escaped);
    expect(JSON.parse(escaped)).toBe("é…😀");
  });
});
