import type { FetchMessageObject, FetchQueryObject } from "imapflow";
import { formatAddress } from "../address.js";
import { capList, capText } from "../result-size.js";
import { messageParts } from "./structure.js";

/** One message in a list or search result. */
export interface MessageSummary {
  mailbox: string;
  uid: number;
  date: string | undefined;
  from: string;
  to: string[];
  subject: string;
  seen: boolean;
  flagged: boolean;
  answered: boolean;
  attachments: number;
  size_bytes: number;
}

/** What list and search fetch per message. */
export const SUMMARY_QUERY: FetchQueryObject = { uid: true, flags: true, envelope: true, internalDate: true, size: true, bodyStructure: true };

export function summarize(mailbox: string, message: FetchMessageObject): MessageSummary {
  const envelope = message.envelope ?? {};
  const flags = message.flags ?? new Set<string>();
  return {
    mailbox,
    uid: message.uid,
    date: isoDate(envelope.date ?? message.internalDate),
    from: capText((envelope.from ?? []).map(formatAddress).join(", "), 200),
    to: capList((envelope.to ?? []).map(formatAddress), 5).map((a) => capText(a, 200)),
    subject: capText(envelope.subject ?? "", 200),
    seen: flags.has("\\Seen"),
    flagged: flags.has("\\Flagged"),
    answered: flags.has("\\Answered"),
    attachments: messageParts(message.bodyStructure).attachments.filter((a) => !a.inline).length,
    size_bytes: message.size ?? 0,
  };
}

export function isoDate(value: Date | string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
