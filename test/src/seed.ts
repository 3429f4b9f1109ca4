import type { SeedMessage } from "@selu-catalogue/testkit/mail";
import { MAILBOX } from "./catalogue-world.ts";
import { minimalPdf } from "./minimal-pdf.ts";

export const TIDE_TABLE_LINES = ["Tide table (Brest), November", "High water 06:12 and 18:40", "Coefficient 95 (spring tide)"];
export const TIDE_TABLE_SUBJECT = "Tide table for the dive";

/** The PDF Alice sent, written by hand (neither the pdf capability nor its libraries made it). */
export const TIDE_TABLE_PDF = minimalPdf(TIDE_TABLE_LINES);

/** Ann's INBOX before the agent looks: Alice sent her a PDF. */
export function inboxSeed(): SeedMessage[] {
  return [
    {
      user: MAILBOX.user,
      mailbox: "INBOX",
      message: {
        from: "Alice Martin <alice@example.com>",
        to: MAILBOX.user,
        subject: TIDE_TABLE_SUBJECT,
        text: "Hi Ann,\nthe tide table for Saturday is attached.\nAlice",
        date: new Date("2026-11-20T09:30:00Z"),
        messageId: "<tides-2026-11@example.com>",
        attachments: [{ filename: "tides.pdf", contentType: "application/pdf", content: TIDE_TABLE_PDF }],
      },
    },
  ];
}
