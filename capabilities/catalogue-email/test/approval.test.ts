import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildAgentPackage, loadCapabilitySource } from "@selu-catalogue/registry";
import { threadedApprovalPrompt } from "@selu-catalogue/testkit/orchestrator";
import { dir } from "./harness.js";

// The agent package Selu installs: its i18n approval strings are what Selu shows when the model writes no message.
const agent = buildAgentPackage(await loadCapabilitySource(dir));
const strings = (locale: "en" | "de") => agent.strings[locale].tools.send_email!.approval!;

/** `_approval_message` of the example prompt.md gives the model (the line quoted after "for example"). */
function promptExample(file: string): string {
  const match = /(?:for example|zum Beispiel)\s+`([^`]+)`/.exec(readFileSync(`${dir}/${file}`, "utf8"));
  if (!match) throw new Error(`${file} gives no example _approval_message`);
  return match[1]!;
}

describe("Selu's approval prompt for send_email (threaded channels)", () => {
  it("names the recipients and the subject when the model follows prompt.md, even with cc and attachments ahead of to", () => {
    const args = {
      to: ["bob@example.com", "carol@example.com"],
      cc: ["dave@example.com"],
      subject: "Quarterly report",
      markdown: "Hi all, the report is attached.",
      attachments: [{ artifact_id: "3f1c0d2e-7a55-4c1b-9a0e-5b1f2d9c8e77" }],
      _approval_message: promptExample("prompt.md"),
    };
    const prompt = threadedApprovalPrompt({ toolName: "send_email", args, strings: strings("en") });
    const [, message] = prompt.split("\n");
    expect(message).toContain("Quarterly report");
    expect(message).toContain("bob@example.com and carol@example.com");
    // What Selu lists itself: to is not among the first three here, which is why the message names it.
    expect(prompt).toContain("- Attachments: ");
    expect(prompt).not.toContain("- To: ");
  });

  it("lists To and Subject for the call prompt.md asks for when the model writes no message, under the package's own message", () => {
    const args = { to: ["bob@example.com"], subject: "Lunch on Friday?", text: "Shall we?", bcc: null, save_to_sent: null };
    const en = threadedApprovalPrompt({ toolName: "send_email", args, strings: strings("en") });
    expect(en).toBe(
      "Before I continue, I need your confirmation.\nSends an email from the user's account.\nDetails:\n" +
        "- Subject: Lunch on Friday?\n- Text: Shall we?\n- To: bob@example.com\n\nIf this looks right, reply to this message.",
    );
    const de = threadedApprovalPrompt({ toolName: "send_email", args, language: "de", strings: strings("de") });
    expect(de).toContain("\nIch möchte diese E-Mail in deinem Namen senden.\nDetails:\n- Subject: Lunch on Friday?\n- Text: Shall we?\n- To: bob@example.com\n");
  });

  it("gives the model a German example that names recipients and subject too", () => {
    expect(promptExample("prompt.de.md")).toMatch(/„Quartalsbericht“ an bob@example\.com und carol@example\.com/);
  });
});
