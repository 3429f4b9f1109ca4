// The catalogue's artifact flows, as an agent would run them through Selu. Shared by the end-to-end tests
// (which check every byte) and the demo (which shows every step).
import type { CallOutcome, Orchestrator } from "@selu-catalogue/testkit";
import type { ReceivedMessage } from "@selu-catalogue/testkit/mail";
import type { CatalogueWorld } from "./catalogue-world.ts";

/** What the model sees of an artifact after the orchestrator stored it. */
export interface ArtifactSeen {
  artifact_id: string;
  filename: string;
  mime_type: string;
  size_bytes: number;
}

/** The seed request: "create a PDF about marine biology and email it to alice@example.com". */
export const MARINE_BIOLOGY_REPORT = {
  title: "Marine Biology: Life in the Coral Reef",
  subtitle: "A short briefing",
  author: "Selu",
  filename: "marine-biology.pdf",
  sections: [
    {
      heading: "Why reefs matter",
      content: [
        { type: "paragraph", text: "Coral reefs cover **less than one percent** of the ocean floor, yet they shelter about a *quarter* of all marine species." },
        { type: "list", ordered: false, items: ["Nurseries for fish", "Coastal protection from storms", "Sources of new medicines"] },
      ],
    },
    {
      heading: "Threats",
      content: [
        {
          type: "table",
          columns: [{ header: "Threat" }, { header: "Effect" }, { header: "Trend", align: "right" }],
          rows: [
            ["Warming water", "Bleaching", "rising"],
            ["Acidification", "Weaker skeletons", "rising"],
            ["Overfishing", "Algae overgrowth", "steady"],
          ],
        },
        { type: "quote", text: "The reef is a city built by animals." },
      ],
    },
  ],
} as const;

export async function call(orchestrator: Orchestrator, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome: CallOutcome = await orchestrator.call(tool, args);
  if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.error}`);
  return outcome.result;
}

export interface ReportSent {
  pdf: ArtifactSeen;
  pdfBytes: Buffer;
  sent: Record<string, unknown>;
  received: ReceivedMessage;
}

/** catalogue-pdf__create_pdf_document, then catalogue-email__send_email with the PDF attached by its artifact id. */
export async function emailMarineBiologyReport(world: CatalogueWorld, to = "alice@example.com"): Promise<ReportSent> {
  const { orchestrator, smtp } = world;
  const before = smtp.messages.length;
  const created = await call(orchestrator, "catalogue-pdf__create_pdf_document", { ...MARINE_BIOLOGY_REPORT });
  const pdf = created.artifact as ArtifactSeen;
  const sent = await call(orchestrator, "catalogue-email__send_email", {
    to: [to],
    subject: "The marine biology report you asked for",
    markdown: "Hi Alice,\n\nhere is the **marine biology** report, as a PDF.\n\nAnn",
    attachments: [{ artifact_id: pdf.artifact_id }],
  });
  const messageId = String(sent.message_id ?? "");
  await smtp.waitForMessages(before + 1, 10_000);
  const received = smtp.messages.find((mail) => mail.messageId === messageId);
  if (!received) throw new Error(`the SMTP server did not receive ${messageId}`);
  return { pdf, pdfBytes: orchestrator.vault.get(pdf.artifact_id)!.bytes, sent, received };
}

export interface AttachmentPassedOn {
  message: Record<string, unknown>;
  attachment: ArtifactSeen;
  attachmentBytes: Buffer;
  extracted: Record<string, unknown>;
}

/** The reverse: find a received message, save its PDF attachment as an artifact, read it with the pdf capability. */
export async function readReceivedPdf(world: CatalogueWorld, subject: string): Promise<AttachmentPassedOn> {
  const { orchestrator } = world;
  const found = await call(orchestrator, "catalogue-email__search_messages", { subject });
  const first = (found.messages as { uid: number }[] | undefined)?.[0];
  if (!first) throw new Error(`no message with subject ${JSON.stringify(subject)} in INBOX`);
  const where = { mailbox: String(found.mailbox ?? "INBOX"), uid: first.uid };
  const message = await call(orchestrator, "catalogue-email__get_message", where);
  const part = (message.attachments as { attachment_id: string; mime_type: string }[]).find((a) => a.mime_type === "application/pdf");
  if (!part) throw new Error("the message has no PDF attachment");
  const saved = await call(orchestrator, "catalogue-email__get_attachment", { ...where, attachment_id: part.attachment_id });
  const attachment = saved.artifact as ArtifactSeen;
  const extracted = await call(orchestrator, "catalogue-pdf__extract_pdf_text", { attachments: [{ artifact_id: attachment.artifact_id }] });
  return { message, attachment, attachmentBytes: orchestrator.vault.get(attachment.artifact_id)!.bytes, extracted };
}
