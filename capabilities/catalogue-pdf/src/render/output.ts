import { formatBytes, ToolError } from "@selu-catalogue/kit";
import type { Doc } from "./doc.js";

/**
 * Gathers pdfkit's output, refusing it as soon as it passes `maxBytes` (checked between blocks while
 * rendering, and on every chunk once the document is finished).
 */
export function collectOutput(doc: Doc, maxBytes: number) {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  const tooLarge = () => new ToolError(`the PDF would be larger than the ${formatBytes(maxBytes)} limit for a file; use fewer or smaller images, or split the document`);
  let settle: { resolve: (b: Buffer) => void; reject: (e: unknown) => void } | undefined;
  const done = new Promise<Buffer>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => {});
  doc.on("data", (chunk: Buffer) => {
    if (over) return;
    size += chunk.length;
    if (size > maxBytes) {
      over = true;
      chunks.length = 0;
      settle?.reject(tooLarge());
      return;
    }
    chunks.push(chunk);
  });
  doc.on("end", () => (over ? undefined : settle?.resolve(Buffer.concat(chunks, size))));
  doc.on("error", (err: unknown) => settle?.reject(err));
  return {
    done,
    check() {
      if (over) throw tooLarge();
    },
    abandon() {
      chunks.length = 0;
      over = true;
    },
  };
}
