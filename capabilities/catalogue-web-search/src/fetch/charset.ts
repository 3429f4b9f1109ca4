/** Text decoded from a page's bytes, and the encoding that was used. */
export interface DecodedText {
  text: string;
  /** WHATWG encoding name, e.g. "utf-8", "windows-1252", "shift_jis". */
  charset: string;
}

/**
 * Decodes a text body as a browser would (WHATWG Encoding): a byte-order mark wins, then the
 * Content-Type charset, then, for HTML, a `<meta charset>` or `http-equiv` declaration in the first
 * 1024 bytes; without any, UTF-8 when the bytes are valid UTF-8, else windows-1252 (the web's legacy
 * default). An unknown label falls back the same way rather than failing the page.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined, html: boolean): DecodedText {
  const bom = sniffBom(bytes);
  if (bom) return decodeWith(bom, bytes);
  const declared = charsetParam(contentType) ?? (html ? metaCharset(bytes) : undefined);
  const known = declared ? encodingFor(declared) : undefined;
  // A page declaring UTF-16 in <meta> is ASCII-compatible bytes by then; HTML says treat it as UTF-8.
  if (known && !known.startsWith("utf-16")) return decodeWith(known, bytes);
  try {
    return { text: new TextDecoder("utf-8", { fatal: true }).decode(bytes), charset: "utf-8" };
  } catch {
    return decodeWith("windows-1252", bytes);
  }
}

function decodeWith(encoding: string, bytes: Uint8Array): DecodedText {
  const decoder = new TextDecoder(encoding);
  return { text: decoder.decode(bytes), charset: decoder.encoding };
}

function sniffBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  return undefined;
}

/** The encoding a label names, or undefined when TextDecoder doesn't know it. */
function encodingFor(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

function charsetParam(contentType: string | undefined): string | undefined {
  return contentType ? /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] : undefined;
}

/** The HTML prescan, reduced: `<meta charset=x>` or `<meta http-equiv=content-type content="...charset=x">`. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?([\w.:-]+)/i.exec(tag);
    if (direct) return direct[1];
  }
  return undefined;
}
