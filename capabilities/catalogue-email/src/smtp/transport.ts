import type { ToolContext } from "@selu-catalogue/kit";
import type net from "node:net";
import type { SendMailOptions, SentMessageInfo } from "nodemailer";
import { withLogin, type Login, type MailAccess } from "../account.js";
import type { SmtpSettings } from "../config.js";
import { MAIL_LIMITS } from "../limits.js";
import { describeSmtpError } from "./errors.js";

type Context = Pick<ToolContext, "signal" | "openTunnel" | "http">;

/** What the server said about the recipients. */
export interface SmtpOutcome {
  accepted: string[];
  rejected: string[];
  response: string;
}

/**
 * Sends one message over SMTP with AUTH, through the egress proxy (`ctx.openTunnel`). Implicit TLS
 * is verified by the tunnel; with `starttls` the tunnel is plain TCP and nodemailer must upgrade it
 * (`requireTLS`: a server that doesn't offer STARTTLS is refused, never used in clear text).
 * Cancelling the call destroys the connection. With OAuth2, a refused login is tried once more with a
 * new access token (nothing was sent yet: AUTH comes before MAIL FROM).
 */
export function sendViaSmtp(ctx: Context, server: SmtpSettings, access: MailAccess, mail: () => SendMailOptions): Promise<SmtpOutcome> {
  return withLogin(ctx, access, (login) => sendOnce(ctx, server, login, mail()));
}

async function sendOnce(ctx: Context, server: SmtpSettings, login: Login, mail: SendMailOptions): Promise<SmtpOutcome> {
  // Loaded on first use: only send_email needs it.
  const { default: nodemailer } = await import("nodemailer");
  const secure = server.security === "tls";
  const sockets: net.Socket[] = [];
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure,
    requireTLS: !secure,
    // SASL XOAUTH2 with an access token (nodemailer never refreshes it itself: no refresh token given).
    auth: login.accessToken ? { type: "OAuth2", user: login.user, accessToken: login.accessToken } : { user: login.user, pass: login.pass },
    connectionTimeout: MAIL_LIMITS.connectTimeoutMs,
    greetingTimeout: MAIL_LIMITS.connectTimeoutMs,
    socketTimeout: MAIL_LIMITS.socketTimeoutMs,
    maxResponseSize: MAIL_LIMITS.smtpMaxReplyBytes,
    logger: false,
    debug: false,
    tls: { servername: server.host, minVersion: "TLSv1.2" },
    getSocket(_options, callback) {
      ctx.openTunnel(server.host, server.port, { tls: secure, signal: ctx.signal, timeoutMs: MAIL_LIMITS.connectTimeoutMs }).then(
        (connection) => {
          sockets.push(connection);
          callback(null, { connection, secured: secure });
        },
        (err: Error) => callback(err),
      );
    },
  });
  const onAbort = () => {
    for (const socket of sockets) socket.destroy();
    transport.close();
  };
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    // Attachments are Buffers already checked by the tool; no file or URL content is ever read.
    const info: SentMessageInfo = await transport.sendMail({ ...mail, disableFileAccess: true, disableUrlAccess: true });
    return {
      accepted: (info.accepted ?? []).map(String),
      rejected: (info.rejected ?? []).map(String),
      response: String(info.response ?? ""),
    };
  } catch (err) {
    ctx.signal.throwIfAborted();
    throw describeSmtpError(err, server, login.accessToken ? "oauth2" : "password");
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    transport.close();
  }
}
