import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import type { Doc } from "./doc.js";
import { leanObjects } from "./pdf-objects.js";
import { batchWrites } from "./pdf-writes.js";

/** A document whose objects hold every kind of value pdfkit writes, as bytes; `lean` writes them our way. */
async function render(lean: boolean): Promise<Buffer> {
  // Uncompressed: batchWrites deflates pages with zlib tables of its own (render/deflate.ts), pdfkit with its defaults.
  const doc: Doc = new PDFDocument({
    compress: false,
    info: { Title: "Título (draft) \\ 1", CreationDate: new Date(Date.UTC(2026, 10, 26, 7, 5, 9)) },
    lang: "de-CH",
    tagged: true,
    pdfVersion: "1.7",
  });
  if (lean) {
    leanObjects(doc);
    batchWrites(doc);
  }
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on("end", resolve));
  const ref = (data: unknown) => (doc as unknown as { ref(data: unknown): { end(chunk?: Uint8Array): void } }).ref(data);
  const other = ref({ Type: "Other" });
  other.end();
  ref({
    Name: "Name#1",
    Numbers: [0, -0, 1.5, -2.25, 1 / 3, 123456789, 1e20, 0.0000004, 595.28],
    Texts: [new String("plain"), new String("(nested) \\ back\nline\ttab\r\b\f"), new String("Grüße — 你好 😀 ()")],
    Empty: [],
    Holes: [undefined, null, true, false],
    Nested: { Inner: { Deeper: [other, { Pg: other }] }, Skipped: undefined, Null: null },
    Bytes: new Uint8Array([0, 1, 0xab, 0xff]),
    When: new Date(Date.UTC(1999, 0, 2, 3, 4, 5)),
  }).end();
  ref({ Filter: "FlateDecode" }).end(Buffer.from("not really deflated"));
  ref({}).end(Buffer.from("a stream of ".repeat(20)));
  doc.addNamedDestination("dest-b", "XYZ", 10, 20, null);
  doc.addNamedDestination("dest-a", "Fit");
  doc.outline.addItem("Item (1)");
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

describe("leanObjects", () => {
  it("writes every object byte for byte as pdfkit does: names, numbers, text strings, dates, trees, streams", async () => {
    const [pdfkit, ours] = [await render(false), await render(true)];
    expect(ours.length).toBeGreaterThan(1000);
    expect(ours.toString("latin1")).toBe(pdfkit.toString("latin1"));
  });
});
