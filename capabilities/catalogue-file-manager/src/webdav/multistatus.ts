// The parts of a WebDAV PROPFIND answer (RFC 4918 §14.16 multistatus) that remote_list shows. A small
// tolerant reader rather than an XML library: any namespace prefix, entities decoded, nothing else.

/** One resource of a multistatus answer. */
export interface DavEntry {
  /** The href, percent-decoded path. */
  href: string;
  directory: boolean;
  size: number | null;
  modified: string | null;
}

const RESPONSE = /<(?:[\w.-]+:)?response\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?response\s*>/g;

/** Reads every `response` of a multistatus body. */
export function parseMultistatus(xml: string): DavEntry[] {
  const entries: DavEntry[] = [];
  for (const [, body] of xml.matchAll(RESPONSE)) {
    const href = element(body!, "href");
    if (href === undefined) continue;
    const length = element(body!, "getcontentlength");
    const modified = element(body!, "getlastmodified");
    entries.push({
      href: safeDecode(decodeEntities(href.trim())),
      directory: /<(?:[\w.-]+:)?collection\b/.test(body!),
      size: length !== undefined && /^\d+$/.test(length.trim()) ? Number(length.trim()) : null,
      modified: modified ? toIso(decodeEntities(modified.trim())) : null,
    });
  }
  return entries;
}

function element(xml: string, name: string): string | undefined {
  // Not a self-closing <x:name/> (a property the server reports as missing, 404 in its propstat).
  const m = new RegExp(`<(?:[\\w.-]+:)?${name}\\b[^>]*(?<!/)>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}\\s*>`).exec(xml);
  return m?.[1];
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith("#x")) return String.fromCodePoint(parseInt(lower.slice(2), 16));
    if (lower.startsWith("#")) return String.fromCodePoint(parseInt(lower.slice(1), 10));
    return ({ amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" } as Record<string, string>)[lower]!;
  });
}

function safeDecode(href: string): string {
  try {
    return decodeURIComponent(new URL(href, "https://x.invalid/").pathname);
  } catch {
    return href;
  }
}

function toIso(date: string): string | null {
  const t = Date.parse(date);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
