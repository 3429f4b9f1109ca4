import { FontFace } from "../text/font-face.js";
import { type EmbeddedFont, encodeOurWay } from "./font-encoding.js";
import type { Doc } from "./doc.js";

/** Words whose layout each font of a document keeps; past this the cache starts afresh. */
const MAX_CACHED_WORDS = 2_000;
/**
 * Longer strings are not kept. pdfkit breaks a word wider than the line by measuring ever shorter
 * prefixes of it, each a cache key: one 10,000-character word filled the cache with 2,000 prefixes of
 * ~10,000 characters (hundreds of MB). Real words are short, so only they gain from the cache.
 */
const MAX_CACHED_WORD_CHARS = 64;

/**
 * Bounds pdfkit's per-font cache of laid-out words. pdfkit keeps every distinct word's glyph run for the
 * whole document: fine for prose, whose words repeat, but text of unique "words" (base64, hashes,
 * minified code) costs about 0.75 KB a character, so 120,000 such characters took 90 MB of heap. Without
 * the cache prose renders four to five times slower; a bounded one keeps both.
 *
 * pdfkit creates a font's cache when the font is first selected, so `doc.font` is wrapped to replace it.
 * There a font of ours also gets its words from the face's own cache, kept across documents and already
 * in the form pdfkit's `layoutRun` would make (text/shaping.ts), and lays lines out without copying them
 * word by word (render/font-encoding.ts).
 */
export function boundLayoutCaches(doc: Doc): void {
  const bounded = new WeakSet<object>();
  const select = doc.font.bind(doc) as (...args: unknown[]) => Doc;
  (doc as { font: (...args: unknown[]) => Doc }).font = (...args: unknown[]) => {
    select(...args);
    const font = (doc as unknown as { _font?: EmbeddedFont })._font;
    if (font && !bounded.has(font)) {
      // A font of ours lays its words out from the face's cache, pdfkit's is not read.
      if (font.font instanceof FontFace) encodeOurWay(font, font.font);
      else if (font.layoutCache) font.layoutCache = boundedCache(MAX_CACHED_WORDS);
      bounded.add(font);
    }
    return doc;
  };
}

/** An object pdfkit can read and write like its plain cache, holding at most `max` entries. */
function boundedCache(max: number): object {
  let entries = new Map<string, unknown>();
  return new Proxy(Object.create(null) as object, {
    get: (_target, key) => (typeof key === "string" ? entries.get(key) : undefined),
    set(_target, key, value) {
      if (typeof key !== "string") return false;
      if (key.length > MAX_CACHED_WORD_CHARS) return true;
      if (entries.size >= max) entries = new Map();
      entries.set(key, value);
      return true;
    },
  });
}
