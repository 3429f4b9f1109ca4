import type { CapabilitySource } from "./capability-source.js";
import type { AgentStrings, PartialAgentStrings } from "./strings-schema.js";

/** What a translation lacks or has too much of, by key path (e.g. `tools.send_email.approval.message`). */
export interface TranslationReport {
  /** Strings people see first: agent name and description, tool names and descriptions, credentials, approvals. */
  missing: string[];
  /** Strings that fall back to English without failing a check: the long description and input fields. */
  fallback: string[];
  /** Keys the translation has but the capability doesn't (a renamed or removed tool, field or credential). */
  unknown: string[];
}

/**
 * Merges a hand-written translation over the English strings: every string the translation lacks is
 * the English one (Selu would otherwise show the manifest's English anyway, but only where it has a
 * fallback: approval messages have none), and the report says which.
 */
export function localizeStrings(english: AgentStrings, translation: PartialAgentStrings | undefined): { strings: AgentStrings; report: TranslationReport } {
  const report: TranslationReport = { missing: [], fallback: [], unknown: [] };
  const t = translation ?? {};
  const pick = (value: string | undefined, fallback: string, key: string, required: boolean) => {
    if (value !== undefined) return value;
    (required ? report.missing : report.fallback).push(key);
    return fallback;
  };
  const agent: AgentStrings["agent"] = {
    name: pick(t.agent?.name, english.agent.name, "agent.name", true),
    description: pick(t.agent?.description, english.agent.description, "agent.description", true),
  };
  if (english.agent.long_description !== undefined) {
    agent.long_description = pick(t.agent?.long_description, english.agent.long_description, "agent.long_description", false);
  }
  const tools: AgentStrings["tools"] = {};
  for (const [name, en] of Object.entries(english.tools)) {
    const tt = t.tools?.[name];
    const at = `tools.${name}`;
    const input: Record<string, string> = {};
    for (const [field, text] of Object.entries(en.input)) input[field] = pick(tt?.input?.[field], text, `${at}.input.${field}`, false);
    for (const field of Object.keys(tt?.input ?? {})) if (!(field in en.input)) report.unknown.push(`${at}.input.${field}`);
    tools[name] = {
      display_name: pick(tt?.display_name, en.display_name, `${at}.display_name`, true),
      description: pick(tt?.description, en.description, `${at}.description`, true),
      input,
    };
    if (en.approval) {
      tools[name]!.approval = {
        label: pick(tt?.approval?.label, en.approval.label, `${at}.approval.label`, true),
        message: pick(tt?.approval?.message, en.approval.message, `${at}.approval.message`, true),
      };
    } else if (tt?.approval) report.unknown.push(`${at}.approval (the tool's policy is not ask)`);
  }
  for (const name of Object.keys(t.tools ?? {})) if (!(name in english.tools)) report.unknown.push(`tools.${name}`);
  const credentials: AgentStrings["credentials"] = {};
  for (const [name, text] of Object.entries(english.credentials)) credentials[name] = pick(t.credentials?.[name], text, `credentials.${name}`, true);
  for (const name of Object.keys(t.credentials ?? {})) if (!(name in english.credentials)) report.unknown.push(`credentials.${name}`);
  return { strings: { agent, tools, credentials }, report };
}

/** The German check's message for a capability, or undefined when its translation is complete enough. */
export function germanProblems(source: CapabilitySource, report: TranslationReport): string | undefined {
  const lines: string[] = [];
  if (source.promptDe === undefined) lines.push("prompt.de.md: missing (the German prompt.md)");
  if (source.german === undefined) lines.push("agent/de.yaml: missing (the German strings; `./dev new` writes one to copy from)");
  else {
    for (const key of report.missing) lines.push(`agent/de.yaml: ${key}: missing`);
    for (const key of report.unknown) lines.push(`agent/de.yaml: ${key}: not in the capability (renamed or removed?)`);
  }
  if (lines.length === 0) return undefined;
  return `${source.dir}: German strings incomplete:\n${lines.map((l) => `  ${l}`).join("\n")}`;
}
