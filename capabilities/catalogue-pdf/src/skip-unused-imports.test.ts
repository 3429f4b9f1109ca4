import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A fresh Node process, since the hook changes module resolution for the whole process.
function unusedModulesLoaded(skip: boolean): string[] {
  const hook = new URL("./skip-unused-imports.ts", import.meta.url).href;
  const script = `
    import { registerHooks } from "node:module";
    import { skipUnusedImports } from ${JSON.stringify(hook)};
    const loaded = [];
    registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
    if (${skip}) skipUnusedImports();
    const { default: PDFDocument } = await import("pdfkit");
    new PDFDocument({ font: null }).end();
    console.log(JSON.stringify(loaded.filter((url) => url.startsWith("data:") || /fontkit|@noble\\/ciphers/.test(url))));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" });
  return JSON.parse(out) as string[];
}

/**
 * Imports linebreak (with or without the hooks) and breaks a text of every code point: a digest of its
 * break opportunities, which depend on each character's class in the table the decoders unpacked, and
 * where base64-js and tiny-inflate were resolved to.
 */
function lineBreaks(skip: boolean): { digest: string; decoders: string[] } {
  const hook = new URL("./skip-unused-imports.ts", import.meta.url).href;
  const script = `
    import { createHash } from "node:crypto";
    import { registerHooks } from "node:module";
    import { skipUnusedImports } from ${JSON.stringify(hook)};
    if (${skip}) skipUnusedImports();
    const decoders = [];
    registerHooks({ resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      if (specifier === "base64-js" || specifier === "tiny-inflate") decoders.push(resolved.url);
      return resolved;
    } });
    const { default: LineBreaker } = await import("linebreak");
    let text = "";
    for (let cp = 0x20; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) text += String.fromCodePoint(cp);
    const breaker = new LineBreaker(text);
    const hash = createHash("sha256");
    for (let b = breaker.nextBreak(); b; b = breaker.nextBreak()) hash.update(\`\${b.position}\${b.required ? "!" : ","}\`);
    console.log(JSON.stringify({ digest: hash.digest("hex"), decoders }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" });
  return JSON.parse(out) as { digest: string; decoders: string[] };
}

describe("skipUnusedImports", () => {
  it("keeps pdfkit from loading fontkit and its AES cipher, which it imports but never calls here", () => {
    const without = unusedModulesLoaded(false);
    expect(without.some((url) => url.includes("/node_modules/fontkit/"))).toBe(true);
    expect(without.some((url) => url.includes("/node_modules/@noble/ciphers/"))).toBe(true);
    const loaded = unusedModulesLoaded(true);
    expect(loaded.filter((url) => url.includes("/node_modules/"))).toEqual([]);
    expect(loaded).toHaveLength(2);
    expect(loaded.every((url) => url.startsWith("data:text/javascript,"))).toBe(true);
  });

  it("gives linebreak native decoders for its class table, which break every code point as its own decoders do", () => {
    const own = lineBreaks(false);
    const native = lineBreaks(true);
    expect(own.decoders).toHaveLength(2);
    expect(own.decoders.every((url) => url.includes("/node_modules/"))).toBe(true);
    expect(native.decoders.sort()).toEqual(["file:///selu-catalogue/native/base64-js.cjs", "file:///selu-catalogue/native/tiny-inflate.cjs"]);
    expect(native.digest).toBe(own.digest);
  });
});
