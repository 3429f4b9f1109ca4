import { ToolError } from "@selu-catalogue/kit";
import { decodeBody } from "./charset.js";
import type { ExtractedPage } from "./html-extract.js";
import { pdfText } from "./pdf-text.js";

/** A page's content as text, whatever it was served as. */
export interface PageContent extends ExtractedPage {
  contentType: string;
  charset?: string;
  /** False when the text stops early (a PDF's pages past the character budget were not read). */
  complete: boolean;
  pages?: number;
}

export type ContentKind = "html" | "text" | "json" | "pdf";

/** What a Content-Type (or, without one, the first bytes) says the body is; undefined for what fetch_page does not read. */
export function contentKind(mediaType: string, body: Buffer): ContentKind | undefined {
  if (mediaType === "text/html" || mediaType === "application/xhtml+xml") return "html";
  if (mediaType === "application/pdf" || mediaType === "application/x-pdf") return "pdf";
  if (mediaType === "application/json" || mediaType === "text/json" || mediaType.endsWith("+json")) return "json";
  if (mediaType === "text/plain" || mediaType === "text/markdown" || mediaType === "text/x-markdown" || mediaType === "text/csv") return "text";
  if (mediaType === "" || mediaType === "application/octet-stream") return sniff(body);
  return undefined;
}

function sniff(body: Buffer): ContentKind | undefined {
  if (body.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  const head = body
    .subarray(0, 512)
    .toString("latin1")
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
    .trimStart()
    .toLowerCase();
  if (head.startsWith("<!doctype html") || head.startsWith("<html") || /^<(head|body|meta|title)\b/.test(head)) return "html";
  if (head.startsWith("{") || head.startsWith("[")) return "json";
  return body.subarray(0, 4096).includes(0) ? undefined : "text";
}

/**
 * Turns a fetched body into text: HTML through Readability (markdown or text), JSON pretty-printed,
 * plain text as it is, PDF through pdf.js (up to `wantChars` characters).
 */
export async function readContent(
  kind: ContentKind,
  body: Buffer,
  mediaType: string,
  contentTypeHeader: string | undefined,
  url: URL,
  format: "markdown" | "text",
  /** Characters needed (start_char + max_chars): a PDF or a very large page is converted only this far. */
  wantChars: number,
  signal: AbortSignal,
): Promise<PageContent> {
  const contentType = mediaType || "(none)";
  if (kind === "pdf") {
    const pdf = await pdfText(body, wantChars, signal);
    return {
      contentType,
      content: pdf.text,
      links: [],
      complete: pdf.pagesRead === pdf.pages,
      pages: pdf.pages,
      ...(pdf.title ? { title: pdf.title } : {}),
      ...(pdf.author ? { byline: pdf.author } : {}),
    };
  }
  const { text, charset } = decodeBody(body, contentTypeHeader, kind === "html");
  if (kind === "html") {
    // The DOM, Readability and turndown load on the first page, not at start-up (Selu waits for readiness).
    const { extractHtml } = await import("./html-extract.js");
    return { contentType, charset, ...extractHtml(text, url, format, wantChars) };
  }
  if (kind === "json") {
    let content = text;
    try {
      content = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Served as JSON but isn't: the text as it is says more than an error would.
    }
    return { contentType, charset, complete: true, content, links: [] };
  }
  return { contentType, charset, complete: true, content: text.replace(/\r\n?/g, "\n"), links: [] };
}

/** The error for a body fetch_page does not read, naming its type. */
export function unsupportedType(mediaType: string, host: string): ToolError {
  const type = mediaType || "an unrecognisable type";
  return new ToolError(`url: ${host} served ${type}, which fetch_page does not read (it reads HTML, plain text, JSON and PDF)`);
}
