// The main job: "create a PDF about marine biology and email it to alice@example.com", run through the
// catalogue as Selu would run it. The pdf and email capabilities run from their production entrypoints,
// each behind its own egress proxy double; mail goes to a real SMTP server on loopback. Every step is
// printed as the orchestrator sees it; the PDF, the message as received and the transcript stay in out/demo.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatTranscriptEntry } from "@selu-catalogue/testkit";
import { startCatalogueWorld } from "../src/catalogue-world.ts";
import { emailMarineBiologyReport, readReceivedPdf } from "../src/scenarios.ts";
import { inboxSeed, TIDE_TABLE_SUBJECT } from "../src/seed.ts";

const outDir = fileURLToPath(new URL("../../out/demo/", import.meta.url));
const started = Date.now();
const world = await startCatalogueWorld({ seed: inboxSeed() });
const { orchestrator } = world;
let printed = 0;
const show = () => {
  for (const entry of orchestrator.transcript.slice(printed)) console.log(formatTranscriptEntry(entry));
  printed = orchestrator.transcript.length;
};

try {
  console.log(`== pdf and email are ready after ${Date.now() - started} ms (production entrypoints, each behind its egress proxy)`);
  console.log(`== the user asks: "Create a PDF about marine biology and email it to alice@example.com"`);
  const sent = await emailMarineBiologyReport(world);
  show();
  console.log(
    `\n== the SMTP server received ${sent.received.raw.byteLength} bytes for ${sent.received.envelope.to.join(", ")}; ` +
      `its PDF attachment is ${sent.received.attachments[0]?.content.equals(sent.pdfBytes) ? "byte-identical to" : "DIFFERENT FROM"} the one the pdf capability made`,
  );

  console.log(`\n== then: "What does the PDF Alice sent say?"`);
  const read = await readReceivedPdf(world, TIDE_TABLE_SUBJECT);
  show();

  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}${sent.pdf.filename}`, sent.pdfBytes);
  writeFileSync(`${outDir}sent-to-alice.eml`, sent.received.raw);
  writeFileSync(`${outDir}${read.attachment.filename}`, read.attachmentBytes);
  writeFileSync(`${outDir}transcript.json`, JSON.stringify(orchestrator.transcript, null, 2));
  console.log(`\n== in ${outDir}: ${sent.pdf.filename} (made by pdf), sent-to-alice.eml (as the SMTP server received it), ` + `${read.attachment.filename} (saved by email), transcript.json`);
} finally {
  const codes = await world.close();
  console.log(
    `== SIGTERM: ${Object.entries(codes)
      .map(([id, code]) => `${id} exited with ${code}`)
      .join(", ")}`,
  );
}
