import { ToolError } from "@selu-catalogue/kit";
import { LoginRefused, loginAdvice, type LoginMethod } from "../account.js";
import type { ServerAddress } from "../config.js";
import { TOO_MANY_RESPONSE_LINES } from "./line-budget.js";

interface ImapFailure {
  authenticationFailed?: boolean;
  tlsFailed?: boolean;
  responseText?: string;
  responseStatus?: string;
  serverResponseCode?: string;
  code?: string;
  message?: string;
}

/**
 * Turns what imapflow throws into a message for the user: which server, what went wrong, what to
 * change. ToolErrors (ours, the kit's egress errors) pass through unchanged; server texts are
 * quoted, as they explain NO answers ("Mailbox doesn't exist").
 */
export function describeImapError(err: unknown, server: ServerAddress, stage: "login" | "command", method: LoginMethod): unknown {
  if (err instanceof ToolError) return err;
  if (!err || typeof err !== "object") return err;
  const failure = err as ImapFailure;
  const target = `${server.host}:${server.port}`;
  const said = failure.responseText ? `: the server said "${clip(failure.responseText)}"` : "";
  if (failure.authenticationFailed || failure.serverResponseCode === "AUTHENTICATIONFAILED") {
    // Only a refused login is retried with a new token: after `work` began, a retry could repeat its effects.
    const Refused = stage === "login" ? LoginRefused : ToolError;
    return new Refused(`IMAP login to ${target} ${loginAdvice(method, said)}`, { cause: err });
  }
  if (failure.serverResponseCode === "NONEXISTENT" || /doesn't exist|does not exist|no such mailbox|unknown mailbox/i.test(failure.responseText ?? "")) {
    return new ToolError(`no such mailbox on ${target}${said}; list_mailboxes shows the mailbox names`, { cause: err });
  }
  if (failure.responseStatus === "NO" || failure.responseStatus === "BAD") {
    return new ToolError(`the IMAP server ${target} refused the request${said}`, { cause: err });
  }
  const code = failure.code ?? "";
  // imapflow's response bounds (MAIL_LIMITS.imap*) and a FETCH answered with messages nobody asked for.
  if (RESPONSE_TOO_LARGE.has(code)) {
    return new ToolError(`the IMAP server ${target} sent more than this capability reads at once (${clip(failure.message ?? code)}); it is misbehaving or not an IMAP server, try again later`, {
      cause: err,
    });
  }
  if (code === UNREQUESTED_MESSAGE) {
    return new ToolError(`the IMAP server ${target} sent more messages than were asked for (${clip(failure.message ?? "")}); it is misbehaving, try again later`, { cause: err });
  }
  // STARTTLS (IMAP_SECURITY starttls): not offered, refused, or a certificate that doesn't verify.
  if (failure.tlsFailed || /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
    return new ToolError(
      `could not secure the connection to the IMAP server ${target} with STARTTLS (${clip(failure.message ?? code)}); ` +
        `the ${method === "oauth2" ? "access token" : "password"} was not sent. Use IMAP_SECURITY tls with IMAP_PORT 993 if the provider offers it`,
      { cause: err },
    );
  }
  if (/TIMEOUT/i.test(code)) {
    return new ToolError(`the IMAP server ${target} did not answer in time (${code}); try again later`, { cause: err });
  }
  if (code === "NoConnection" || code === "EConnectionClosed" || /ECONNRESET|EPIPE|closed/i.test(`${code} ${failure.message ?? ""}`)) {
    return new ToolError(`the connection to the IMAP server ${target} was lost${stage === "login" ? " while logging in" : ""}; try again`, { cause: err });
  }
  return err;
}

const RESPONSE_TOO_LARGE = new Set(["LiteralTooLarge", "LineTooLarge", "ResponseTooLarge", "TooManyTokens", TOO_MANY_RESPONSE_LINES]);

/** True for imapflow's errors about a response over the configured bounds. */
export function isResponseTooLarge(err: unknown): boolean {
  return !!err && typeof err === "object" && RESPONSE_TOO_LARGE.has(String((err as ImapFailure).code));
}

/** The code of the error thrown when a FETCH brings a message whose UID was not asked for. */
export const UNREQUESTED_MESSAGE = "UnrequestedMessage";

function clip(text: string): string {
  return text.replace(/[\r\n]+/g, " ").slice(0, 200);
}
