import { registerHooks } from "node:module";

const fail = (what: string) => `() => { throw new Error(${JSON.stringify(what)}); }`;

// What pdfkit gets instead of two packages it imports at load time and never calls here: fontkit's
// create() reads a font given as a file or bytes (ours are FontFace objects, text/font-face.ts, which it
// takes as they are), and AES is for encrypted PDFs (we never set a password).
const STUBS: Record<string, string> = {
  fontkit: `export const create = ${fail("fontkit is not loaded: give pdfkit a FontFace")};`,
  "@noble/ciphers/aes": `export const cbc = ${fail("PDF encryption is not loaded")}; export const ecb = cbc;`,
};

/**
 * Keeps pdfkit from loading fontkit and its AES cipher, which cost about 13 MiB of memory and 100 ms of
 * start-up and are never called (issue 17 item 3). Must run before pdfkit is imported (the production
 * entrypoint imports the capability after it).
 */
export function skipUnusedImports(): void {
  registerHooks({
    resolve(specifier, context, next) {
      const stub = STUBS[specifier];
      if (stub && context.parentURL?.includes("/pdfkit/")) return { url: `data:text/javascript,${encodeURIComponent(stub)}`, format: "module", shortCircuit: true };
      return next(specifier, context);
    },
  });
}
