import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode, isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { formatBytes } from "../format.js";
import { collectCapped } from "../limits/collect-capped.js";
import type { Logger } from "../log.js";
import { errorMessage } from "../errors.js";

/** One client's session: its server and transport. */
interface Session {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

export interface McpHttpOptions {
  host: string;
  port: number;
  /** Largest request body read, in bytes; a larger one is refused from its length or while it arrives. */
  maxBodyBytes: number;
  /** Sessions held at once; a new one past it is refused until one ends or idles out. */
  maxSessions: number;
  /** A session with no request for this long is closed, in ms. */
  sessionIdleMs: number;
  log: Logger;
  /** Makes the server of a new session (sessions share the runtime); `sessionId` reads its id. */
  createServer(sessionId: () => string): Server;
}

/** A listening Streamable HTTP endpoint at `/mcp`. */
export interface McpHttpEndpoint {
  readonly port: number;
  /** Stops taking connections and sessions. */
  stopAccepting(): void;
  /** Closes every session and connection. */
  close(): Promise<void>;
}

/**
 * MCP's Streamable HTTP transport (the SDK's, one per session) on node:http. The body is read here under
 * its bound, so a request is never buffered past it (the SDK's own reader would take 4 MB and no more,
 * too little for a file passed as base64). When bound to loopback, Host headers other than loopback
 * names are refused (DNS rebinding, as the MCP specification asks).
 */
export async function listenMcpHttp(options: McpHttpOptions): Promise<McpHttpEndpoint> {
  const sessions = new Map<string, Session>();
  let accepting = true;
  let boundPort = options.port;
  const loopback = options.host === "127.0.0.1" || options.host === "localhost" || options.host === "::1";

  const newSession = async (): Promise<Session> => {
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, session),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    // The session id is made while the initialize request is handled, so the server reads it per call.
    const server = options.createServer(() => transport.sessionId ?? "");
    const session: Session = { server, transport, lastSeen: Date.now() };
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/mcp") return plain(res, 404, "not found: the MCP endpoint is /mcp");
    // A page in a browser could reach a loopback server through a name it rebinds to 127.0.0.1.
    if (loopback && !isLoopbackHost(req.headers.host, boundPort)) return plain(res, 403, "forbidden: this server answers loopback names only");
    const id = req.headers["mcp-session-id"];
    const existing = typeof id === "string" ? sessions.get(id) : undefined;
    if (existing) existing.lastSeen = Date.now();
    if (req.method !== "POST") {
      if (!existing) return rpcError(res, 404, ErrorCode.InvalidRequest, "unknown or expired session; initialize a new one");
      return existing.transport.handleRequest(req, res);
    }
    const body = await readBody(req, options.maxBodyBytes);
    if (!body.ok) return rpcError(res, body.status, body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, body.error);
    if (existing) return existing.transport.handleRequest(req, res, body.value);
    if (typeof id === "string") return rpcError(res, 404, ErrorCode.InvalidRequest, "unknown or expired session; initialize a new one");
    if (!isInitializeRequest(body.value)) return rpcError(res, 400, ErrorCode.InvalidRequest, "no session: send initialize first");
    if (!accepting) return rpcError(res, 503, ErrorCode.InternalError, "the capability is shutting down");
    if (sessions.size >= options.maxSessions) return rpcError(res, 503, ErrorCode.InternalError, `busy: ${options.maxSessions} sessions are open; try again later`);
    const session = await newSession();
    await session.transport.handleRequest(req, res, body.value);
  };

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      options.log.error("mcp http request failed", { error: errorMessage(err) });
      if (!res.headersSent) rpcError(res, 500, ErrorCode.InternalError, "internal error");
      else res.destroy();
    });
  });
  const sweep = setInterval(
    () => {
      const idleSince = Date.now() - options.sessionIdleMs;
      for (const [id, session] of sessions) {
        if (session.lastSeen >= idleSince) continue;
        sessions.delete(id);
        void session.transport.close();
      }
    },
    Math.min(options.sessionIdleMs, 60_000),
  );
  sweep.unref();

  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, options.host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  boundPort = typeof address === "object" && address ? address.port : options.port;

  return {
    port: boundPort,
    stopAccepting() {
      accepting = false;
      http.close();
    },
    async close() {
      accepting = false;
      clearInterval(sweep);
      await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

type BodyResult = { ok: true; value: unknown } | { ok: false; status: number; error: string };

/** The request's JSON body, read under `max` bytes: refused from Content-Length, or as soon as it passes. */
async function readBody(req: IncomingMessage, max: number): Promise<BodyResult> {
  const tooLarge: BodyResult = { ok: false, status: 413, error: `request refused: over ${formatBytes(max)}; pass large files by uri, or smaller` };
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > max) {
    req.resume();
    return tooLarge;
  }
  const bytes = await collectCapped(req, max, declared);
  if (!bytes) return tooLarge;
  try {
    return { ok: true, value: JSON.parse(bytes.toString("utf8")) };
  } catch {
    return { ok: false, status: 400, error: "request refused: the body is not JSON" };
  }
}

function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}` || host === `[::1]:${port}`;
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "text/plain" }).end(text);
}
