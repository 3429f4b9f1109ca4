import { isIP } from "node:net";
import tls from "node:tls";
import type { ToolContext } from "@selu-catalogue/kit";
import type { ImapFlow } from "imapflow";
import { withLogin, type Login, type MailAccess } from "../account.js";
import type { ImapSettings } from "../config.js";
import { MAIL_LIMITS } from "../limits.js";
import { describeImapError, isResponseTooLarge } from "./errors.js";
import { ImapLineBudget } from "./line-budget.js";

type Context = Pick<ToolContext, "signal" | "openTunnel" | "http">;

/**
 * Runs `work` on a logged-in IMAP session reached through the egress proxy (`ctx.openTunnel`), over
 * implicit TLS or STARTTLS (required: a server that doesn't offer it is refused before the password or
 * token is sent), and logs out after. One connection per call: calls run concurrently and a broken
 * session never leaks into another call. Cancelling the call closes the connection. With OAuth2, a
 * refused login is tried once more with a new access token (before `work` ran).
 */
export function withImap<T>(ctx: Context, server: ImapSettings, access: MailAccess, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  return withLogin(ctx, access, (login) => imapSession(ctx, server, login, work));
}

async function imapSession<T>(ctx: Context, server: ImapSettings, login: Login, work: (client: ImapFlow) => Promise<T>): Promise<T> {
  // Loaded on first use: readiness and memory stay small for calls that never read mail.
  const { ImapFlow } = await import("imapflow");
  const implicit = server.security === "tls";
  // Surfaced through the pending command's rejection, except a response over the bounds: imapflow
  // then closes the connection and the command only hears "connection closed", so keep the cause.
  let streamError: unknown;
  const socket = await ctx.openTunnel(server.host, server.port, { tls: implicit, signal: ctx.signal, timeoutMs: MAIL_LIMITS.connectTimeoutMs });
  const budget = new ImapLineBudget(MAIL_LIMITS.imapMaxSessionLineBytes, (err) => {
    streamError ??= err;
    // Without the error: imapflow may have closed already (its own bound on a line) and taken its error
    // listener with it, and an 'error' nobody listens to would end the process. The command hears the
    // connection close, and `cause` below names the budget.
    socket.destroy();
  });
  const countLines = (chunk: Buffer) => budget.observe(chunk);
  const client = new ImapFlow({
    host: server.host,
    port: server.port,
    secure: implicit,
    doSTARTTLS: !implicit,
    // XOAUTH2 (or OAUTHBEARER where offered) with an access token, else LOGIN with the password.
    auth: login.accessToken ? { user: login.user, accessToken: login.accessToken } : { user: login.user, pass: login.pass },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: MAIL_LIMITS.connectTimeoutMs,
    greetingTimeout: MAIL_LIMITS.connectTimeoutMs,
    socketTimeout: MAIL_LIMITS.socketTimeoutMs,
    maxLiteralSize: MAIL_LIMITS.imapMaxLiteralBytes,
    maxLineLength: MAIL_LIMITS.imapMaxLineBytes,
    maxResponseSize: MAIL_LIMITS.imapMaxResponseBytes,
    maxResponseTokens: MAIL_LIMITS.imapMaxResponseTokens,
    // COMPRESS=DEFLATE would hide the responses from the line budget (and could inflate a bomb).
    disableCompression: true,
    // The tunnel is already connected and TLS-verified by the kit; hand it over as the transport.
    transport: {
      // The line budget listens once imapflow has piped the socket to its parser: a data listener added
      // before that would start the flow and take the greeting from it.
      connect(_options, onConnect) {
        setImmediate(() => {
          onConnect();
          socket.on("data", countLines);
        });
        return socket;
      },
      // STARTTLS: TLS over the same tunnel, verified against the trusted roots for the configured name.
      // From the handshake on, the tunnel carries TLS records and the lines arrive on the TLS socket.
      upgrade(_plain, _options, onSecure) {
        socket.off("data", countLines);
        const secure = tls.connect({ socket, host: server.host, ...(isIP(server.host) ? {} : { servername: server.host }) }, () => {
          onSecure();
          secure.on("data", countLines);
        });
        return secure;
      },
    },
  });
  client.on("error", (err: unknown) => (streamError ??= err));
  const cause = (err: unknown) => (isResponseTooLarge(streamError) ? streamError : err);
  const onAbort = () => client.close();
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  try {
    try {
      await client.connect();
    } catch (err) {
      throw describeImapError(cause(err), server, "login", login.accessToken ? "oauth2" : "password");
    }
    try {
      return await work(client);
    } catch (err) {
      throw describeImapError(cause(err), server, "command", login.accessToken ? "oauth2" : "password");
    }
  } catch (err) {
    ctx.signal.throwIfAborted();
    throw err;
  } finally {
    ctx.signal.removeEventListener("abort", onAbort);
    await logoutWithin(client, LOGOUT_MS);
    socket.destroy();
  }
}

// A polite LOGOUT, but a server that stalls on it (or a fetch still streaming) must not hold the call.
const LOGOUT_MS = 2_000;

async function logoutWithin(client: ImapFlow, ms: number): Promise<void> {
  if (!client.usable) return client.close();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([client.logout().catch(() => {}), late]);
  clearTimeout(timer);
  client.close();
}
