import { errorMessage, installStandIns, ToolError } from "@selu-catalogue/kit";
import { WEB_LIMITS } from "../limits.js";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");
let pdfjs: Promise<PdfJs> | undefined;

/**
 * pdf.js is large: loaded on the first PDF only. At import it requires @napi-rs/canvas (left out on
 * purpose, see pnpm-workspace.yaml: only text is read), which finds the kit's stand-in.
 */
function loadPdfJs(): Promise<PdfJs> {
  installStandIns();
  return (pdfjs ??= import("pdfjs-dist/legacy/build/pdf.mjs"));
}

/** A PDF's text and metadata. */
export interface PdfText {
  title?: string;
  author?: string;
  pages: number;
  /** Pages read (at most {@link WEB_LIMITS.maxPdfPages}). */
  pagesRead: number;
  text: string;
}

/**
 * Extracts the text of a PDF with pdf.js, pages separated by blank lines, stopping after
 * `maxChars` characters or {@link WEB_LIMITS.maxPdfPages} pages. Checks the signal between pages.
 * @throws {ToolError} for an encrypted or damaged file.
 */
export async function pdfText(bytes: Buffer, maxChars: number, signal: AbortSignal): Promise<PdfText> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({ data: new Uint8Array(bytes), disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false });
  const onAbort = () => void task.destroy();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const pdf = await task.promise.catch((err: unknown) => {
      const name = err instanceof Error ? err.name : "";
      if (name === "PasswordException") throw new ToolError("url: the PDF is encrypted and can't be read without its password");
      throw new ToolError(`url: the PDF is damaged and can't be read (${errorMessage(err)})`);
    });
    const info = ((await pdf.getMetadata().catch(() => undefined))?.info ?? {}) as { Title?: unknown; Author?: unknown };
    const parts: string[] = [];
    let length = 0;
    let read = 0;
    for (let n = 1; n <= Math.min(pdf.numPages, WEB_LIMITS.maxPdfPages) && length < maxChars; n++) {
      signal.throwIfAborted();
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      page.cleanup();
      let text = "";
      for (const item of content.items) if ("str" in item) text += item.str + (item.hasEOL ? "\n" : "");
      text = text.replace(/[ \t]+\n/g, "\n").trim();
      parts.push(text);
      length += text.length + 2;
      read = n;
    }
    signal.throwIfAborted();
    return {
      ...(typeof info.Title === "string" && info.Title.trim() ? { title: info.Title.trim() } : {}),
      ...(typeof info.Author === "string" && info.Author.trim() ? { author: info.Author.trim() } : {}),
      pages: pdf.numPages,
      pagesRead: read,
      text: parts.join("\n\n"),
    };
  } finally {
    signal.removeEventListener("abort", onAbort);
    await task.destroy();
  }
}
