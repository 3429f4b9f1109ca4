import { registerHooks } from "node:module";

const SPECIFIER = "@napi-rs/canvas";
const STAND_IN = "file:///selu-catalogue/no-canvas.cjs";
// What pdf.js finds instead of @napi-rs/canvas: we only read text, never render, so its canvas classes refuse.
const SOURCE = `
const refuse = () => { throw new Error("pdf: rendering pages is not supported (only text is read)"); };
class DOMMatrix { constructor() { refuse(); } }
class Path2D { constructor() { refuse(); } }
module.exports = { DOMMatrix, Path2D };
`;

let installed = false;

/**
 * Lets pdf.js's `require("@napi-rs/canvas")` (made at import, only to render pages) find a stand-in
 * whose classes refuse, instead of failing and printing three warnings with console.warn. The package
 * is left out on purpose (pnpm-workspace.yaml); this replaces swapping the global console around the
 * import (issue 11 item 4). Only that one specifier is touched; every other resolution is Node's own.
 */
export function installNoCanvas(): void {
  if (installed) return;
  installed = true;
  registerHooks({
    resolve: (specifier, context, next) => (specifier === SPECIFIER ? { url: STAND_IN, format: "commonjs", shortCircuit: true } : next(specifier, context)),
    load: (url, context, next) => (url === STAND_IN ? { format: "commonjs", source: SOURCE, shortCircuit: true } : next(url, context)),
  });
}
