import { ToolError } from "@selu-catalogue/kit";
import { parseAddress } from "./address.js";

/** A server the capability talks to, reached through the egress proxy. */
export interface ServerAddress {
  host: string;
  port: number;
}

export interface SmtpSettings extends ServerAddress {
  /** `tls`: TLS from the first byte (port 465); `starttls`: plain greeting, then STARTTLS, required. */
  security: "starttls" | "tls";
}

export interface ImapSettings extends ServerAddress {
  /** `tls`: TLS from the first byte (port 993); `starttls`: plain greeting, then STARTTLS, required. */
  security: "starttls" | "tls";
}

type Values = Readonly<Record<string, string | undefined>>;

const HOST = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*$/;

export function readImapSettings(values: Values): ImapSettings {
  const imapPort = port(values, "IMAP_PORT", 993);
  // Port 143 is IMAP's plain port: without a setting, STARTTLS there, implicit TLS everywhere else.
  const security = readSecurity(values, "IMAP_SECURITY", 993) ?? (imapPort === 143 ? "starttls" : "tls");
  return { host: host(values, "IMAP_HOST"), port: imapPort, security };
}

export function readSmtpSettings(values: Values): SmtpSettings {
  const smtpPort = port(values, "SMTP_PORT", 587);
  const security = readSecurity(values, "SMTP_SECURITY", 465) ?? (smtpPort === 465 ? "tls" : "starttls");
  return { host: host(values, "SMTP_HOST"), port: smtpPort, security };
}

/** SMTP_SECURITY / IMAP_SECURITY when set: "starttls" or "tls". Clear text is never an option. */
function readSecurity(values: Values, name: string, implicitPort: number): "starttls" | "tls" | undefined {
  const raw = values[name]?.trim().toLowerCase();
  if (!raw) return undefined;
  if (raw !== "starttls" && raw !== "tls") {
    throw new ToolError(`credential ${name} must be "starttls" or "tls" (implicit TLS, port ${implicitPort}); fix it in Selu's credentials`);
  }
  return raw;
}

/** The From address: EMAIL_FROM_ADDRESS, else the user name when it is an address; and the display name. */
export function readSender(values: Values): { address: string; name: string | undefined } {
  const configured = values.EMAIL_FROM_ADDRESS?.trim();
  const candidate = configured || values.EMAIL_USERNAME?.trim() || "";
  const parsed = parseAddress(candidate);
  if (!parsed || parsed.name) {
    throw new ToolError(
      configured
        ? "credential EMAIL_FROM_ADDRESS is not a plain email address (like alice@example.com); fix it in Selu's credentials"
        : "EMAIL_USERNAME is not an email address, so set the credential EMAIL_FROM_ADDRESS to the address to send from",
    );
  }
  const name = values.EMAIL_FROM_NAME?.trim() || undefined;
  if (name && /[\r\n\0]/.test(name)) throw new ToolError("credential EMAIL_FROM_NAME must be one line (no line breaks); fix it in Selu's credentials");
  return { address: parsed.address, name };
}

function need(values: Values, name: string): string {
  const value = values[name];
  if (!value) throw new ToolError(`missing credential ${name}: set it in Selu's credentials for the email capability`);
  if (/[\r\n\0]/.test(value)) throw new ToolError(`credential ${name} must not contain line breaks; fix it in Selu's credentials`);
  return value;
}

function host(values: Values, name: string): string {
  const value = need(values, name).trim().toLowerCase();
  if (!HOST.test(value)) throw new ToolError(`credential ${name} must be a host name like mail.example.com, without scheme or port`);
  return value;
}

function port(values: Values, name: string, fallback: number): number {
  const raw = values[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1 || value > 65535) throw new ToolError(`credential ${name} must be a port number (1-65535)`);
  return value;
}
