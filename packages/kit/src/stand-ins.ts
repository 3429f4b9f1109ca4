import { registerHooks } from "node:module";

// The workspace leaves these packages out on purpose (pnpm-workspace.yaml, `overrides`) although a library
// requires them at import: pdf.js requires @napi-rs/canvas only to render pages, which no capability does
// (leaving it out saves ~40 MB of RSS per process). Each gets a stand-in whose classes refuse.
const STAND_INS: Readonly<Record<string, string>> = {
  "@napi-rs/canvas": `
const refuse = () => { throw new Error("rendering pages is not supported (only text is read)"); };
class DOMMatrix { constructor() { refuse(); } }
class Path2D { constructor() { refuse(); } }
module.exports = { DOMMatrix, Path2D };
`,
};

let installed = false;

/**
 * Lets a library's `require` of a package the workspace leaves out find a stand-in, instead of failing and
 * printing warnings with `console.warn`, which capabilities used to silence by swapping the global console
 * (issue 11 item 4). Call it before importing pdf.js. Only those specifiers are touched; every other
 * resolution is Node's own. Calling it again does nothing.
 *
 * @example
 * import { installStandIns } from "@selu-catalogue/kit";
 * installStandIns(); // then: await import("pdfjs-dist/legacy/build/pdf.mjs")
 */
export function installStandIns(): void {
  if (installed) return;
  installed = true;
  // A URL no file has, one per package: "@napi-rs/canvas" -> file:///selu-catalogue/stand-in/-napi-rs-canvas.cjs.
  const urls = new Map(Object.keys(STAND_INS).map((name) => [name, `file:///selu-catalogue/stand-in/${name.replace(/[^\w.-]/g, "-")}.cjs`]));
  const sources = new Map([...urls].map(([name, url]) => [url, STAND_INS[name]!]));
  registerHooks({
    resolve: (specifier, context, next) => {
      const url = urls.get(specifier);
      return url ? { url, format: "commonjs", shortCircuit: true } : next(specifier, context);
    },
    load: (url, context, next) => {
      const source = sources.get(url);
      return source === undefined ? next(url, context) : { format: "commonjs", source, shortCircuit: true };
    },
  });
}
