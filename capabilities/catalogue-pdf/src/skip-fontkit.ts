import { registerHooks } from "node:module";

// What pdfkit gets for `import { create } from "fontkit"`: it calls create() only for a font given as a
// file or bytes, and ours are FontFace objects (text/font-face.ts) that it takes as they are.
const STUB = `data:text/javascript,export function create() { throw new Error("fontkit is not loaded: give pdfkit a FontFace"); }`;

/**
 * Keeps pdfkit from loading fontkit, which it imports at load time but never calls with our fonts:
 * fontkit and its dependencies cost about 11 MiB of memory and 100 ms of start-up (issue 17 item 3).
 * Must run before pdfkit is imported (the production entrypoint imports the capability after it).
 */
export function skipFontkit(): void {
  registerHooks({
    resolve(specifier, context, next) {
      if (specifier === "fontkit" && context.parentURL?.includes("/pdfkit/")) return { url: STUB, format: "module", shortCircuit: true };
      return next(specifier, context);
    },
  });
}
