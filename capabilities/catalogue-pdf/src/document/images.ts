import { errorMessage, formatBytes, isAbortError, ToolError, type AttachmentArg, type InputFile, type ToolContext } from "@selu-catalogue/kit";
import { PDF_LIMITS } from "../limits.js";
import { BadPng, checkPngPixels, readPngStructure, type PngStructure } from "./png-check.js";
import type { ImageSource, PreparedDocument } from "./prepare.js";

/** An image ready to embed: its bytes and its size in pixels. */
export interface LoadedImage {
  bytes: Buffer;
  format: "png" | "jpeg";
  width: number;
  height: number;
  /** A PNG's checked chunks, for embedding it without pdfkit's decoder. */
  png?: PngStructure;
  /** The attachment's file name or the last part of the URL's path, for a figure with no alt text or caption. */
  name?: string;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Reads the pixel size from a PNG or JPEG header, or undefined when the bytes are neither. */
export function sniffImage(bytes: Buffer): (Omit<LoadedImage, "bytes" | "png"> & { unsupported?: true }) | undefined {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.toString("latin1", 12, 16) === "IHDR") {
    return { format: "png", width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    // Walk the segments to the first start-of-frame marker, which holds the size.
    for (let at = 2; at + 9 < bytes.length; ) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at += 1;
        continue;
      }
      const length = bytes.readUInt16BE(at + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) {
        if (at + 9 >= bytes.length) return undefined;
        // PDF's DCTDecode takes 8-bit samples in 1 (grey), 3 (YCbCr/RGB) or 4 (CMYK) components.
        const supported = bytes[at + 4] === 8 && [1, 3, 4].includes(bytes[at + 9]!);
        return { format: "jpeg", height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7), ...(supported ? {} : { unsupported: true }) };
      }
      at += 2 + length;
    }
  }
  return undefined;
}

/**
 * Loads every image the document uses, once per source: attachments from the artifact store, URLs through
 * the egress client (Selu's proxy, SSRF guard, response cap). Each is checked to be a PNG or JPEG within
 * the pixel limit before pdfkit decodes it. pdfkit embeds image data mostly as it is, so images larger in
 * all than the output cap can't make a PDF within it: loading stops as soon as they pass it.
 */
export async function loadImages(doc: PreparedDocument, files: readonly AttachmentArg[], ctx: Pick<ToolContext, "artifacts" | "http" | "signal" | "limits">): Promise<Map<string, LoadedImage>> {
  const images = new Map<string, LoadedImage>();
  const cap = ctx.limits.maxArtifactBytes;
  let total = 0;
  for (const section of doc.sections) {
    for (const block of section.blocks) {
      if (block.kind !== "image") continue;
      const key = sourceKey(block.source);
      if (images.has(key)) continue;
      const { bytes, what, name } = await fetchBytes(block.source, block.field, files, ctx);
      total += bytes.length;
      if (total > cap) {
        throw new ToolError(`${block.field}: the images add up to more than ${formatBytes(cap)}, the limit for the whole PDF; use fewer or smaller images`);
      }
      const image = await check(bytes, what, ctx.signal);
      if (name) image.name = name;
      images.set(key, image);
    }
  }
  return images;
}

/**
 * The document's attached images, looked up now: a call waiting for a work slot keeps its attachments
 * readable while other calls' outputs fill the store and evict the least recently used files. Their bytes
 * are in memory already; holding them until the render is bounded by the calls admitted at once.
 * Reads of other attachments go to the store as before.
 */
export function holdAttachments<T extends Pick<ToolContext, "artifacts">>(doc: PreparedDocument, files: readonly AttachmentArg[], ctx: T): T {
  const held = new Map<AttachmentArg, InputFile>();
  for (const section of doc.sections) {
    for (const block of section.blocks) {
      if (block.kind !== "image" || !("attachmentIndex" in block.source)) continue;
      const file = files[block.source.attachmentIndex];
      if (file && !held.has(file)) held.set(file, ctx.artifacts.read(file, `attachments[${block.source.attachmentIndex}]`));
    }
  }
  if (held.size === 0) return ctx;
  return { ...ctx, artifacts: { ...ctx.artifacts, read: (attachment, field) => held.get(attachment) ?? ctx.artifacts.read(attachment, field) } };
}

/** The key images are shared by: the same attachment or URL is embedded once. */
export function sourceKey(source: ImageSource): string {
  return "attachmentIndex" in source ? `attachment:${source.attachmentIndex}` : `url:${source.url.href}`;
}

async function fetchBytes(
  source: ImageSource,
  field: string,
  files: readonly AttachmentArg[],
  ctx: Pick<ToolContext, "artifacts" | "http" | "signal">,
): Promise<{ bytes: Buffer; what: string; name?: string }> {
  if ("attachmentIndex" in source) {
    const at = `attachments[${source.attachmentIndex}]`;
    const file = ctx.artifacts.read(files[source.attachmentIndex]!, at);
    return { bytes: file.bytes(), what: `${at} (${file.filename}, used by ${field})`, name: file.filename };
  }
  const what = `${field}.url`;
  let url = source.url;
  for (let hop = 0; ; hop++) {
    let response;
    try {
      response = await ctx.http.request(url, { headers: { accept: "image/png, image/jpeg" }, signal: ctx.signal });
    } catch (err) {
      if (isAbortError(err) || ctx.signal.aborted) throw err;
      // EgressError messages are written for the user (refused host, timeout, too large): say which field.
      throw new ToolError(`${what}: ${errorMessage(err)}`, { cause: err });
    }
    // Named by the URL given, not the one redirected to (a CDN's hash).
    if (response.status === 200) return { bytes: response.body, what, name: lastPathPart(source.url) };
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || typeof location !== "string") {
      throw new ToolError(`${what}: ${url.host} answered HTTP ${response.status}; check the URL`);
    }
    // Each hop is a new request through the same client, so the SSRF guard checks every target.
    if (hop + 1 >= MAX_REDIRECTS) throw new ToolError(`${what}: more than ${MAX_REDIRECTS - 1} redirects; give the image's final URL`);
    // A Location the server made up is the server's fault, said as such with the field (issue 10 item 8).
    const next = URL.parse(location, url.href);
    if (!next) throw new ToolError(`${what}: ${url.host} redirects to ${JSON.stringify(location.slice(0, 200))}, which is not a valid URL; give the image's final URL`);
    if (next.protocol !== "https:") throw new ToolError(`${what}: ${url.host} redirects to a non-https URL, which is not fetched`);
    url = next;
  }
}

/** The last part of a URL's path, decoded (`q3-revenue.png`), or undefined for none. */
function lastPathPart(url: URL): string | undefined {
  const part = url.pathname.split("/").at(-1) ?? "";
  try {
    return decodeURIComponent(part) || undefined;
  } catch {
    return part || undefined;
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Requests per image, the first included. */
const MAX_REDIRECTS = 4;

async function check(bytes: Buffer, what: string, signal: AbortSignal): Promise<LoadedImage> {
  const info = sniffImage(bytes);
  if (!info) throw new ToolError(`${what}: is not a PNG or JPEG image; convert it to one of those`);
  if (info.width === 0 || info.height === 0) throw new ToolError(`${what}: the image has no pixels`);
  if (info.unsupported) throw new ToolError(`${what}: the JPEG uses a sample depth or colour layout PDF can't show; save it again as an ordinary 8-bit JPEG or as PNG`);
  const pixels = info.width * info.height;
  const size = `${info.width}×${info.height} pixels`;
  if (pixels > PDF_LIMITS.maxImagePixels) {
    throw new ToolError(`${what}: the image is ${size}, more than the limit of ${PDF_LIMITS.maxImagePixels / 1e6} megapixels; scale it down`);
  }
  if (info.format === "png") {
    const damaged = (err: unknown) => {
      if (!(err instanceof BadPng)) return err;
      return new ToolError(`${what}: the PNG is damaged (${err.message}); save it again or convert it to JPEG`);
    };
    let png: PngStructure;
    try {
      png = readPngStructure(bytes);
    } catch (err) {
      throw damaged(err);
    }
    if (png.decodedInMemory && pixels > PDF_LIMITS.maxDecodedImagePixels) {
      throw new ToolError(
        `${what}: the image is ${size} with transparency or interlacing, more than the limit of ${PDF_LIMITS.maxDecodedImagePixels / 1e6} megapixels for such PNGs; scale it down or save it without transparency`,
      );
    }
    await checkPngPixels(png, signal).catch((err: unknown) => {
      throw damaged(err);
    });
    return { bytes, format: info.format, width: info.width, height: info.height, png };
  }
  return { bytes, format: info.format, width: info.width, height: info.height };
}
