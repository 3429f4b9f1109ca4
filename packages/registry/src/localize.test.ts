import { describe, expect, it } from "vitest";
import { localizeStrings } from "./localize.js";
import type { AgentStrings } from "./strings-schema.js";

const english: AgentStrings = {
  agent: { name: "Notes", description: "Notes.", long_description: "Long." },
  tools: { send_note: { display_name: "Send note", description: "Sends.", input: { text: "The note" }, approval: { label: "Send note", message: "Sends." } } },
  credentials: { API_TOKEN: "Token" },
};

describe("localizeStrings", () => {
  it("falls back to English for each missing string and reports it", () => {
    const { strings, report } = localizeStrings(english, { agent: { name: "Notizen" }, tools: { send_note: { display_name: "Notiz senden" } } });
    expect(strings.agent).toEqual({ name: "Notizen", description: "Notes.", long_description: "Long." });
    expect(strings.tools.send_note).toEqual({ display_name: "Notiz senden", description: "Sends.", input: { text: "The note" }, approval: { label: "Send note", message: "Sends." } });
    expect(report.missing).toEqual(["agent.description", "tools.send_note.description", "tools.send_note.approval.label", "tools.send_note.approval.message", "credentials.API_TOKEN"]);
    expect(report.fallback).toEqual(["agent.long_description", "tools.send_note.input.text"]);
  });

  it("reports translations of tools, fields and credentials the capability no longer has", () => {
    const { report } = localizeStrings(english, { tools: { old_tool: {}, send_note: { input: { gone: "x" } } }, credentials: { OLD: "x" } });
    expect(report.unknown).toEqual(["tools.send_note.input.gone", "tools.old_tool", "credentials.OLD"]);
  });
});
