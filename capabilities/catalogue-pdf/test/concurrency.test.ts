import { status, type ServiceError } from "@grpc/grpc-js";
import { loadManifest } from "@selu-catalogue/manifest";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { connectCapability, invokeCapability, peakRssMiB } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { figuresTable, sampleLetter, sampleReport } from "./fixtures/documents.js";
import { encodePng, gradientPng, noisePng } from "./fixtures/png.js";
import { capabilityDir, startPdf, type PdfHarness } from "./support/harness.js";
import { pdfInfo, pdfText } from "./support/poppler.js";

// Several calls at once in one shared container, and calls stopped by their deadline.
const logs: string[] = [];
let pdf: PdfHarness;
let client: ReturnType<typeof connectCapability>;
beforeAll(async () => {
  pdf = await startPdf({ LOG_LEVEL: "debug" }, (line) => logs.push(line));
  client = connectCapability(pdf.proc.address);
}, 30_000);
afterAll(async () => {
  client?.close();
  await pdf?.stop();
});

const { manifest } = loadManifest(`${capabilityDir}/manifest.yaml`);
const maxConcurrent = manifest!.sharing.max_concurrent;

describe("concurrent calls", () => {
  it(`renders max_concurrent (${maxConcurrent}) reports and a letter at once, each with its own content, within the memory limit`, async () => {
    const chart = pdf.file(gradientPng(800, 400), "chart.png", "image/png");
    const reports = Array.from({ length: maxConcurrent }, (_, i) => ({ ...sampleReport({ attachments: [{ artifact_id: chart }] }), title: `Report number ${i + 1}` }));
    const results = await Promise.all([...reports.map((r) => pdf.ok("create_pdf_document", r)), pdf.ok("create_pdf_document", sampleLetter())]);
    results.slice(0, -1).forEach((result, i) => {
      const bytes = pdf.bytes(result);
      expect(pdfInfo(bytes).Title).toBe(`Report number ${i + 1}`);
      const text = pdfText(bytes);
      expect(text).toContain(`Report number ${i + 1}`);
      expect(text).not.toMatch(new RegExp(`Report number (?!${i + 1}\\b)\\d`));
      expect(result.pages).toBe(results[0]!.pages);
    });
    expect(pdfText(pdf.bytes(results.at(-1)!))).toContain("Kündigung des Mietvertrags");
    const peak = peakRssMiB(pdf.proc.child.pid!);
    console.log(`peak RSS with ${maxConcurrent} reports at once: ${peak} MiB`);
    expect(peak).toBeLessThan(manifest!.resources.max_memory_mb);
  }, 60_000);

  it("answers a small call while a large render runs", async () => {
    const large = pdf.ok("create_pdf_document", { title: "Large", sections: Array.from({ length: 8 }, (_, s) => ({ heading: `S${s}`, content: [figuresTable(150, s)] })) });
    const started = Date.now();
    let smallDone = 0;
    await pdf.ok("create_pdf_document", sampleLetter()).then(() => (smallDone = Date.now()));
    const largeResult = await large;
    const largeDone = Date.now();
    expect(largeResult.ok).toBe(true);
    expect(smallDone - started).toBeLessThan(largeDone - started);
  }, 60_000);
});

describe("heavy work at once", () => {
  it("merges and reads a PDF of 1,000 dense pages while reports render, within the memory limit", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 1_000; i++) {
      const page = doc.addPage([400, 600]);
      for (let l = 0; l < 40; l++) page.drawText(`Page ${i + 1} line ${l} with some words to make it longer`, { x: 10, y: 580 - l * 14, size: 10, font });
    }
    const dense = pdf.file(Buffer.from(await doc.save({ useObjectStreams: false })), "dense.pdf", "application/pdf");
    const chart = pdf.file(gradientPng(800, 400), "chart.png", "image/png");
    const [merged, extracted, ...reports] = await Promise.all([
      pdf.ok("merge_pdfs", {
        attachments: [
          { artifact_id: dense, pages: "1-600" },
          { artifact_id: dense, pages: "601-" },
        ],
      }),
      pdf.ok("extract_pdf_text", { attachments: [{ artifact_id: dense }], pages: "990-1000" }),
      ...Array.from({ length: 2 }, () => pdf.ok("create_pdf_document", sampleReport({ attachments: [{ artifact_id: chart }] }))),
    ]);
    expect(merged.pages).toBe(1_000);
    expect((extracted.pages as { text: string }[])[0]!.text).toContain("Page 990 line 0");
    for (const report of reports) expect(report.ok).toBe(true);
    expect(peakRssMiB(pdf.proc.child.pid!)).toBeLessThan(manifest!.resources.max_memory_mb);
  }, 60_000);
});

describe("largest images", () => {
  it("renders max_concurrent documents with the largest images allowed at once, within the memory limit", async () => {
    const big = pdf.file(noisePng(1250, 1350), "big.png", "image/png"); // about 5 MB, opaque
    const alpha = pdf.file(encodePng({ width: 2000, height: 2000, colorType: 6, bitDepth: 8, filtered: true }), "alpha.png", "image/png"); // 4 MP with alpha
    const withImage = (id: string) => ({ title: "Image", sections: [{ heading: "H", content: [{ type: "image", attachment_index: 0 }] }], attachments: [{ artifact_id: id }] });
    const results = await Promise.all([...Array.from({ length: maxConcurrent - 1 }, () => pdf.ok("create_pdf_document", withImage(big))), pdf.ok("create_pdf_document", withImage(alpha))]);
    for (const result of results) expect(result.ok).toBe(true);
    const peak = peakRssMiB(pdf.proc.child.pid!);
    console.log(`peak RSS after the largest images (the process having merged and rendered before): ${peak} MiB`);
    expect(peak).toBeLessThan(manifest!.resources.max_memory_mb);
  }, 60_000);
});

describe("cancellation", () => {
  it("stops a render when the call's deadline passes, and keeps serving", async () => {
    const args = { title: "Huge", sections: Array.from({ length: 24 }, (_, s) => ({ heading: `S${s}`, content: [figuresTable(180, s)] })) };
    const request = { toolName: "create_pdf_document", argsJson: Buffer.from(JSON.stringify(args)), configJson: Buffer.from("{}"), sessionId: "s", capabilityId: "catalogue-pdf", threadId: "" };
    // Selu's timer is client-side (no grpc-timeout): the render must have started for the cancel to reach it,
    // and must not have ended: these 155 pages are as many characters as a document may have (200,000); a
    // warmed process renders them in about 0.3 s, and reads and checks the arguments within a few ms.
    // On a loaded machine (CI runs every package's tests at once) 100 ms may pass before the 200 KB request
    // has even reached the kit: then no call ran, nothing is logged, and the cancel is tried again, later.
    const calls = () => logs.map((l) => JSON.parse(l) as { msg?: string; outcome?: string; ms?: number }).filter((l) => l.msg === "tool call");
    let cancelled: { ms?: number } | undefined;
    for (const deadlineMs of [100, 150, 200]) {
      const before = calls().length;
      const err = await invokeCapability(client, request, { deadlineMs }).then(
        () => undefined,
        (e: ServiceError) => e,
      );
      expect(err?.code).toBe(status.CANCELLED); // Selu sends no grpc-timeout: its client cancels when its timer fires
      cancelled = await waitFor(() => calls().slice(before).find((l) => l.outcome === "cancelled"), 2_000).catch(() => undefined);
      if (cancelled) break;
    }
    if (!cancelled) throw new Error(`no call was cancelled in three tries; logs:\n${logs.join("\n")}`);
    // The render checks the signal between blocks and table rows, so it stops soon after the cancel.
    expect(cancelled.ms).toBeLessThan(4_000); // 0.1 s to the cancel, then the next block or row check
    expect((await pdf.ok("create_pdf_document", sampleLetter())).ok).toBe(true);
  }, 30_000);
});

async function waitFor<T>(find: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(`not found within ${timeoutMs} ms; logs:\n${logs.join("\n")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
