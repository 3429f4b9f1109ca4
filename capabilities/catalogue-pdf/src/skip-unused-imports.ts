import { registerHooks } from "node:module";

const fail = (what: string) => `() => { throw new Error(${JSON.stringify(what)}); }`;

// What pdfkit gets instead of two packages it imports at load time and never calls here: fontkit's
// create() reads a font given as a file or bytes (ours are FontFace objects, text/font-face.ts, which it
// takes as they are), and AES is for encrypted PDFs (we never set a password).
const STUBS: Record<string, string> = {
  fontkit: `export const create = ${fail("fontkit is not loaded: give pdfkit a FontFace")};`,
  "@noble/ciphers/aes": `export const cbc = ${fail("PDF encryption is not loaded")}; export const ecb = cbc;`,
};

// Native stand-ins for the JavaScript decoders linebreak runs on its Unicode class table when imported
// (base64, then raw deflate twice). Their loops are hot enough that V8 optimizes them with TurboFan
// during start-up, which maps about 5 MiB of the node binary (the optimizing compiler's code) into a
// process that is otherwise idle (issue 17). Same results: a Uint8Array of its own buffer (linebreak
// reads it through `data.buffer`), and tiny-inflate's contract (fill `dest`, return it or its used part).
const NATIVE: Record<string, { parent: string; source: string }> = {
  "base64-js": {
    parent: "/linebreak/",
    source: `exports.toByteArray = (text) => new Uint8Array(Buffer.from(text, "base64"));`,
  },
  "tiny-inflate": {
    parent: "/unicode-trie/",
    source: `const { inflateRawSync } = process.getBuiltinModule("node:zlib");
module.exports = (source, dest) => {
  const out = inflateRawSync(source, { maxOutputLength: dest.length });
  dest.set(out);
  return out.length < dest.length ? dest.slice(0, out.length) : dest;
};`,
  },
};
const nativeUrl = (name: string) => `file:///selu-catalogue/native/${name}.cjs`;
const nativeSources = new Map(Object.keys(NATIVE).map((name) => [nativeUrl(name), NATIVE[name]!.source]));

/**
 * Keeps pdfkit from loading fontkit and its AES cipher, which cost about 13 MiB of memory and 100 ms of
 * start-up and are never called (issue 17 item 3), and gives linebreak native decoders (see NATIVE).
 * Must run before pdfkit and linebreak are imported (the production entrypoint imports the capability
 * after it; linebreak stays outside the bundle so that its imports pass through here).
 */
export function skipUnusedImports(): void {
  registerHooks({
    resolve(specifier, context, next) {
      const stub = STUBS[specifier];
      if (stub && context.parentURL?.includes("/pdfkit/")) return { url: `data:text/javascript,${encodeURIComponent(stub)}`, format: "module", shortCircuit: true };
      const native = NATIVE[specifier];
      if (native && context.parentURL?.includes(native.parent)) return { url: nativeUrl(specifier), format: "commonjs", shortCircuit: true };
      return next(specifier, context);
    },
    load(url, context, next) {
      const source = nativeSources.get(url);
      return source === undefined ? next(url, context) : { format: "commonjs", source, shortCircuit: true };
    },
  });
}
