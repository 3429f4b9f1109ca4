// The catalogue end to end: artifacts travel between capabilities through the orchestrator double
// exactly as Selu carries them, and real counterparts (SMTP, IMAP, poppler) check the bytes.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCatalogueWorld, type CatalogueWorld } from "./src/catalogue-world.ts";
import { call, emailMarineBiologyReport, readReceivedPdf, type ArtifactSeen, type ReportSent } from "./src/scenarios.ts";
import { inboxSeed, TIDE_TABLE_LINES, TIDE_TABLE_PDF, TIDE_TABLE_SUBJECT } from "./src/seed.ts";

let world: CatalogueWorld;
beforeAll(async () => {
  world = await startCatalogueWorld({ seed: inboxSeed() });
});
afterAll(async () => {
  const codes = await world?.close();
  expect(codes).toEqual({ "catalogue-pdf": 0, "catalogue-email": 0 });
});

const pdftotext = (bytes: Buffer) => {
  const file = join(mkdtempSync(join(tmpdir(), "e2e-")), "in.pdf");
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
};

describe("create a PDF about marine biology and email it to alice@example.com", () => {
  let flow: ReportSent;
  beforeAll(async () => {
    flow = await emailMarineBiologyReport(world);
  });

  it("delivers a MIME message whose PDF attachment is byte-identical to what the pdf capability produced", () => {
    const { received, pdf, pdfBytes } = flow;
    expect(received.envelope.to).toEqual(["alice@example.com"]);
    expect(received.authUser).toBe("ann@example.com");
    expect(received.secure).toBe(true);
    const attachments = received.attachments;
    expect(attachments).toHaveLength(1);
    expect(attachments[0]!.contentType).toBe("application/pdf");
    expect(attachments[0]!.filename).toBe(pdf.filename);
    expect(attachments[0]!.content.equals(pdfBytes)).toBe(true);
    expect(pdfBytes.byteLength).toBe(pdf.size_bytes);
  });

  it("sends a PDF an independent reader can read", () => {
    const text = pdftotext(flow.received.attachments[0]!.content);
    expect(text).toContain("Marine Biology: Life in the Coral Reef");
    expect(text.indexOf("Why reefs matter")).toBeLessThan(text.indexOf("Threats"));
    expect(text).toMatch(/Warming water\s+Bleaching\s+rising/);
  });

  it("went through the orchestrator as Selu does it: download, rewrite, upload into the email capability", () => {
    const steps = world.orchestrator.transcript.map((e) => `${e.kind} ${e.tool}`);
    const at = (step: string) => steps.indexOf(step);
    expect(at("download catalogue-pdf__create_pdf_document")).toBeGreaterThan(at("raw-result catalogue-pdf__create_pdf_document"));
    expect(at("upload catalogue-email__send_email")).toBeGreaterThan(at("call catalogue-email__send_email"));
    expect(at("upload catalogue-email__send_email")).toBeLessThan(at("invoke catalogue-email__send_email"));
    const upload = world.orchestrator.transcript.find((e) => e.kind === "upload" && e.tool === "catalogue-email__send_email");
    expect(upload).toMatchObject({ artifactId: flow.pdf.artifact_id, sizeBytes: flow.pdf.size_bytes, mimeType: "application/pdf" });
    expect(flow.sent.accepted).toEqual(["alice@example.com"]);
  });
});

describe("the reverse: a received attachment goes to catalogue-email__get_attachment, then catalogue-pdf__extract_pdf_text", () => {
  it("hands the received PDF on byte for byte and reads its text", async () => {
    const flow = await readReceivedPdf(world, TIDE_TABLE_SUBJECT);
    expect(flow.attachment).toMatchObject({ filename: "tides.pdf", mime_type: "application/pdf" });
    expect(flow.attachmentBytes.equals(TIDE_TABLE_PDF)).toBe(true);
    const pages = flow.extracted.pages as { text: string }[];
    expect(pages).toHaveLength(1);
    for (const line of TIDE_TABLE_LINES) expect(pages[0]!.text).toContain(line);
  });
});

describe("artifacts from two capabilities combined: merge a received PDF with part of a new one and send the result on", () => {
  it("keeps each attachment's extra keys (pages) through the orchestrator's rewrite and delivers the merged PDF", async () => {
    const received = await readReceivedPdf(world, TIDE_TABLE_SUBJECT);
    const notes = await call(world.orchestrator, "catalogue-pdf__create_pdf_document", {
      title: "Dive notes",
      sections: [{ heading: "Plan", content: [{ type: "paragraph", text: "Draft plan, superseded." }, { type: "page_break" }, { type: "paragraph", text: "Final plan: descend at 09:00." }] }],
    });
    expect(notes.pages).toBe(2);
    const merged = await call(world.orchestrator, "catalogue-pdf__merge_pdfs", {
      attachments: [{ artifact_id: received.attachment.artifact_id }, { artifact_id: (notes.artifact as ArtifactSeen).artifact_id, pages: "2" }],
      filename: "dive-pack.pdf",
    });
    expect(merged).toMatchObject({ ok: true, pages: 2, artifact: { filename: "dive-pack.pdf", mime_type: "application/pdf" } });
    const artifact = merged.artifact as ArtifactSeen;
    const before = world.smtp.messages.length;
    await call(world.orchestrator, "catalogue-email__send_email", {
      to: ["bob@example.com"],
      subject: "Dive pack",
      text: "Tide table and the final plan, in one file.",
      attachments: [{ artifact_id: artifact.artifact_id }],
    });
    const [mail] = (await world.smtp.waitForMessages(before + 1, 10_000)).slice(before);
    expect(mail!.envelope.to).toEqual(["bob@example.com"]);
    const pdf = mail!.attachments[0]!.content;
    expect(pdf.equals(world.orchestrator.vault.get(artifact.artifact_id)!.bytes)).toBe(true);
    const text = pdftotext(pdf);
    // The received PDF first, then only page 2 of the notes: order and page range survived the rewrite.
    expect(text.indexOf(TIDE_TABLE_LINES[0]!)).toBeGreaterThanOrEqual(0);
    expect(text.indexOf("Final plan: descend at 09:00.")).toBeGreaterThan(text.indexOf(TIDE_TABLE_LINES[0]!));
    expect(text).not.toContain("Draft plan");
  });
});
