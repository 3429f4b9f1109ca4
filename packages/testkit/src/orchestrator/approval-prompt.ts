// Selu's approval prompt for an `ask` tool in a threaded channel (contract section 2), as the
// orchestrator builds it (`build_approval_prompt` in crates/selu-orchestrator/src/agents/engine.rs):
// what the user reads before approving a call, to test that it identifies what is about to happen.

/** The agent package's approval strings of one tool in one locale (`approval.tools."<cap>__<tool>"`). */
export interface ApprovalStrings {
  label?: string | undefined;
  message?: string | undefined;
}

/** What the prompt is built from. */
export interface ApprovalPromptInput {
  /** The bare tool name (the label's fallback, humanised). */
  toolName: string;
  /** The call's arguments as the model wrote them, `_approval_message` and `_approval_message_i18n` included. */
  args: Record<string, unknown>;
  /** The user's language; Selu's own lines exist in English and German. Default en. */
  language?: "en" | "de";
  /** The installed agent package's approval label and message for the tool in that language. */
  strings?: ApprovalStrings;
}

const LINES = {
  en: { header: "Before I continue, I need your confirmation.", action: "Action: ", details: "Details:", reply: "If this looks right, reply to this message." },
  de: { header: "Bevor ich weitermache, brauche ich kurz deine Bestätigung.", action: "Aktion: ", details: "Details:", reply: "Wenn das passt, antworte einfach auf diese Nachricht." },
} as const;

const INTERNAL = ["_approval_message", "_approval_message_i18n"];

/**
 * The text Selu posts in a threaded channel for an `ask` tool: its header; the model's
 * `_approval_message_i18n` for the language (then `en`) or `_approval_message`, else the agent package's
 * message, else "Action: <label>"; then the first three non-null arguments in key order (Selu's JSON
 * objects keep keys sorted), each `Humanised key: value` cut to 80 bytes; then how to approve.
 */
export function threadedApprovalPrompt(input: ApprovalPromptInput): string {
  const language = input.language ?? "en";
  const lines = LINES[language];
  const message = modelMessage(input.args, language) ?? nonEmpty(input.strings?.message);
  const label = nonEmpty(input.strings?.label) ?? humanize(input.toolName);
  let prompt = `${lines.header}\n${message ?? `${lines.action}${label}`}`;
  const details = Object.keys(input.args)
    .filter((key) => !INTERNAL.includes(key) && input.args[key] !== null)
    .sort(byBytes)
    .slice(0, 3)
    .map((key) => `${humanize(key)}: ${formatValue(input.args[key])}`);
  if (details.length > 0) prompt += `\n${lines.details}\n${details.map((d) => `- ${d}\n`).join("")}`;
  return `${prompt}\n${lines.reply}`;
}

function modelMessage(args: Record<string, unknown>, language: string): string | undefined {
  const localized = args._approval_message_i18n;
  if (localized && typeof localized === "object" && !Array.isArray(localized)) {
    for (const candidate of [language, "en"]) {
      const text = (localized as Record<string, unknown>)[candidate];
      const collapsed = typeof text === "string" ? collapse(text) : "";
      if (collapsed) return truncate(collapsed);
    }
  }
  const raw = args._approval_message;
  const collapsed = typeof raw === "string" ? collapse(raw) : "";
  return collapsed ? truncate(collapsed) : undefined;
}

function formatValue(value: unknown): string {
  if (typeof value === "string") return truncate(value);
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return truncate(value.join(", "));
  return truncate(JSON.stringify(sortKeys(value)));
}

// Over 80 UTF-8 bytes: the first 77 characters and "...".
function truncate(text: string): string {
  return Buffer.byteLength(text) > 80 ? `${[...text].slice(0, 77).join("")}...` : text;
}

/** `reply_to_message` -> "Reply to message", `listUuid` -> "List uuid", as Selu writes argument names. */
export function humanize(identifier: string): string {
  let out = "";
  let prevLowerOrDigit = false;
  for (const ch of identifier) {
    if (ch === "_" || ch === "-") {
      if (!out.endsWith(" ")) out += " ";
      prevLowerOrDigit = false;
      continue;
    }
    const upper = ch >= "A" && ch <= "Z";
    if (upper && prevLowerOrDigit && !out.endsWith(" ")) out += " ";
    out += upper ? ch.toLowerCase() : ch;
    prevLowerOrDigit = (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9");
  }
  const normalized = out.split(/\s+/).filter(Boolean).join(" ");
  if (!normalized) return identifier;
  return normalized.charAt(0).toUpperCase() + normalized.slice(1);
}

function collapse(text: string): string {
  return text.split(/\s+/).filter(Boolean).join(" ");
}

function nonEmpty(text: string | undefined): string | undefined {
  return text && text.trim() !== "" ? text : undefined;
}

function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

// serde_json without preserve_order keeps object keys sorted, nested ones too.
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort(byBytes)
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
