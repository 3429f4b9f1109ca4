import { registerHooks } from "node:module";

// V8 keeps a module's source for the life of the process (it compiles functions from it when first
// called), and Node decodes a source with any character outside ASCII to a string of two bytes a
// character. A capability's bundle is ASCII (scripts/bundle-entry.mjs), but the packages it leaves
// outside are not: pdfkit's 236 KB hold one '…' in a string, harfbuzzjs's 85 KB nine '∞' in a comment,
// pdf.js's 3.5 MB a few '©', '–' and Cyrillic letters in strings. Written as \u escapes, they mean the
// same in a string, a template's text, a regular expression and a comment, where these are.

/** A byte of a character outside ASCII, in UTF-8. */
const NOT_ASCII_BYTE = /[\x80-\xff]/;
const NOT_ASCII = /[^\0-\x7f]/;
const EVERY_NOT_ASCII = /[^\0-\x7f]/g;
const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Has the JavaScript of installed packages (node_modules) loaded with every character outside ASCII
 * written as a \u escape, so that V8 keeps its source at one byte a character. Call it in the production
 * entrypoint before anything imports a package left outside the bundle (`--external`); it is a subpath of
 * its own (`@selu-catalogue/kit/one-byte-sources`) so that importing it loads nothing else.
 */
export function keepSourcesOneByte(): void {
  registerHooks({
    load(url, context, next) {
      const loaded = next(url, context);
      const { source, format } = loaded;
      if (source == null || (format !== "module" && format !== "commonjs") || !url.startsWith("file:") || !url.includes("/node_modules/")) return loaded;
      const ascii = asciiSource(source);
      return ascii ? { ...loaded, source: ascii } : loaded;
    },
  });
}

/**
 * A module's source with every character outside ASCII written as a \u escape, as bytes (which Node
 * decodes to a new string: V8 keeps a string made from a two-byte one, as by replace, two bytes a
 * character even when no character in it needs two); undefined when it is ASCII already.
 */
export function asciiSource(source: string | ArrayBuffer | NodeJS.ArrayBufferView): Buffer | undefined {
  const bytes = typeof source === "string" ? undefined : asBuffer(source);
  // A one-byte string of the bytes and a native search: far cheaper than decoding sources that are fine.
  if (bytes ? !NOT_ASCII_BYTE.test(bytes.toString("latin1")) : !NOT_ASCII.test(source as string)) return undefined;
  const text = bytes ? bytes.toString("utf8") : (source as string);
  return Buffer.from(text.replace(EVERY_NOT_ASCII, escaped));
}

/** The bytes a load hook was given, without copying them. */
function asBuffer(source: ArrayBuffer | NodeJS.ArrayBufferView): Buffer {
  return ArrayBuffer.isView(source) ? Buffer.from(source.buffer, source.byteOffset, source.byteLength) : Buffer.from(source);
}
