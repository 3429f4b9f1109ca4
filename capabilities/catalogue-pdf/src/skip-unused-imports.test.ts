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
});
