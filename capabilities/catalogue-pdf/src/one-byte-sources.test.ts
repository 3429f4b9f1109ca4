import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

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
  /** What each module exported (its names, and the values that are not functions). */
  values: Record<string, unknown>;
  names: Record<string, string[]>;
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
    const values = {}, names = {};
    for (const [name, specifier] of Object.entries(${JSON.stringify(imports)})) {
      const namespace = await import(specifier);
      names[name] = Object.keys(namespace);
      values[name] = { ...namespace };
    }
    console.log(JSON.stringify({ values, names, ascii }));`;
  const cwd = fileURLToPath(new URL("..", import.meta.url));
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
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

  it("gives pdfkit, harfbuzzjs and pdfjs ASCII sources, which keep working", () => {
    const imports = { pdfkit: "pdfkit", harfbuzz: "harfbuzzjs", pdfjs: "pdfjs-dist/legacy/build/pdf.mjs" };
    const plain = run(false, imports);
    const hooked = run(true, imports);
    const wide = ["pdfkit/js/pdfkit.node.mjs", "harfbuzzjs/dist/index.mjs", "pdfjs-dist/legacy/build/pdf.mjs"];
    for (const file of wide) expect(plain.ascii[file], file).toBe(false);
    for (const file of wide) expect(hooked.ascii[file], file).toBe(true);
    expect(hooked.names).toEqual(plain.names);
    expect(hooked.names.pdfjs).toContain("getDocument");
    expect(hooked.values.pdfjs).toEqual(plain.values.pdfjs);
  });
});
