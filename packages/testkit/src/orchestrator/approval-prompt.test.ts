import { describe, expect, it } from "vitest";
import { humanize, threadedApprovalPrompt } from "./approval-prompt.js";

describe("threadedApprovalPrompt", () => {
  it("shows the action and the first three non-null arguments in key order, as Selu does", () => {
    const prompt = threadedApprovalPrompt({
      toolName: "delete_items",
      language: "de",
      args: { listUuid: "d6018602-2aa7-4f26-bbb6-c25065b86ca0", itemNames: ["Spülmaschinensalz"], zeta: 1, alpha: null, beta: { b: 2, a: 1 } },
      strings: { label: "Delete multiple items from list" },
    });
    expect(prompt).toBe(
      "Bevor ich weitermache, brauche ich kurz deine Bestätigung.\nAktion: Delete multiple items from list\nDetails:\n" +
        '- Beta: {"a":1,"b":2}\n- Item names: Spülmaschinensalz\n- List uuid: d6018602-2aa7-4f26-bbb6-c25065b86ca0\n' +
        "\nWenn das passt, antworte einfach auf diese Nachricht.",
    );
  });

  it("prefers the model's localized message, then its plain one, then the package's message, and never lists them as arguments", () => {
    const args = { to: "a", _approval_message: "  Send   it. ", _approval_message_i18n: { de: "Senden." } };
    expect(threadedApprovalPrompt({ toolName: "send", args, language: "de" })).toContain("\nSenden.\n");
    expect(threadedApprovalPrompt({ toolName: "send", args, language: "en" })).toContain("\nSend it.\nDetails:\n- To: a\n");
    const prompt = threadedApprovalPrompt({ toolName: "send", args: { to: "a" }, strings: { message: "Sends mail." } });
    expect(prompt).toContain("\nSends mail.\n");
    expect(prompt).not.toContain("_approval");
  });

  it("cuts a value over 80 bytes to 77 characters and an ellipsis", () => {
    const prompt = threadedApprovalPrompt({ toolName: "t", args: { subject: "ü".repeat(90) } });
    expect(prompt).toContain(`- Subject: ${"ü".repeat(77)}...\n`);
  });

  it("humanises argument names", () => {
    expect(humanize("reply_to_message")).toBe("Reply to message");
    expect(humanize("listUuid")).toBe("List uuid");
    expect(humanize("to")).toBe("To");
  });
});
