import { formatBytes, ToolError } from "@selu-catalogue/kit";
import { LoginRefused, loginAdvice, type LoginMethod } from "../account.js";
import { MAIL_LIMITS } from "../limits.js";
import type { ServerAddress } from "../config.js";

interface SmtpFailure {
  code?: string;
  response?: string;
  responseCode?: number;
  rejected?: unknown[];
  message?: string;
}

/**
 * Turns nodemailer's errors into messages for the user. Egress errors (proxy refused, TLS) are
 * ToolErrors already and pass unchanged; server responses are quoted, one line.
 */
export function describeSmtpError(err: unknown, server: ServerAddress, method: LoginMethod): unknown {
  if (err instanceof ToolError) return err;
  if (!err || typeof err !== "object") return err;
  const failure = err as SmtpFailure;
  const target = `${server.host}:${server.port}`;
  const said = failure.response ? `: the server said "${clip(failure.response)}"` : "";
  // nodemailer drops a connection whose reply passes maxResponseSize (EPROTOCOL, but nothing was refused).
  if (/response exceeds maximum allowed size/i.test(failure.message ?? "")) {
    return new ToolError(`the SMTP server ${target} sent a reply longer than ${formatBytes(MAIL_LIMITS.smtpMaxReplyBytes)}; it is misbehaving or not an SMTP server, nothing was sent`, { cause: err });
  }
  switch (failure.code) {
    case "EAUTH":
      return new LoginRefused(`SMTP login to ${target} ${loginAdvice(method, said)}`, { cause: err });
    case "ENOAUTH":
      return new ToolError(`SMTP login to ${target} failed: EMAIL_USERNAME or EMAIL_PASSWORD is empty`, { cause: err });
    case "EENVELOPE":
      return new ToolError(`the SMTP server ${target} accepted none of the recipients${said}; nothing was sent`, { cause: err });
    case "EMESSAGE":
    case "EPROTOCOL":
      return new ToolError(`the SMTP server ${target} refused the message${said}; nothing was sent`, { cause: err });
    case "ETLS":
      return new ToolError(`TLS with the SMTP server ${target} failed (${clip(failure.message ?? "")}); check SMTP_SECURITY (starttls or tls) and SMTP_PORT`, { cause: err });
    case "ETIMEDOUT":
      return new ToolError(`the SMTP server ${target} did not answer in time; check SMTP_PORT and SMTP_SECURITY, or try again later`, { cause: err });
    case "ECONNECTION":
    case "ESOCKET":
      // nodemailer reports a failed STARTTLS certificate check as a socket error.
      if (/certificate|altnames|self[- ]signed|unable to verify|SSL|TLS/i.test(failure.message ?? "")) {
        return new ToolError(`TLS with the SMTP server ${target} failed (${clip(failure.message ?? "")}); check SMTP_HOST; nothing was sent`, { cause: err });
      }
      return new ToolError(`the connection to the SMTP server ${target} failed (${clip(failure.message ?? "")}); nothing was sent`, { cause: err });
    default:
      return err;
  }
}

function clip(text: string): string {
  return text.replace(/[\r\n]+/g, " ").slice(0, 200);
}
