import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A fresh Node process, since the hook changes module resolution for the whole process.
function fontkitModulesLoaded(skip: boolean): string[] {
  const hook = new URL("./skip-fontkit.ts", import.meta.url).href;
  const script = `
    import { registerHooks } from "node:module";
    import { skipFontkit } from ${JSON.stringify(hook)};
    const loaded = [];
    registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
    if (${skip}) skipFontkit();
    const { default: PDFDocument } = await import("pdfkit");
    new PDFDocument({ font: null }).end();
    console.log(JSON.stringify(loaded.filter((url) => url.includes("fontkit"))));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: fileURLToPath(new URL("..", import.meta.url)), encoding: "utf8" });
  return JSON.parse(out) as string[];
}

describe("skipFontkit", () => {
  it("keeps pdfkit from loading fontkit, which it imports but never calls with our fonts", () => {
    expect(fontkitModulesLoaded(false).some((url) => url.includes("/node_modules/"))).toBe(true);
    const loaded = fontkitModulesLoaded(true);
    expect(loaded.some((url) => url.includes("/node_modules/"))).toBe(false);
    expect(loaded).toEqual([expect.stringMatching(/^data:text\/javascript,/)]);
  });
});
