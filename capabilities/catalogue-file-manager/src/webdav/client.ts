import type { HttpClient } from "@selu-catalogue/kit";

type HttpResponse = Awaited<ReturnType<HttpClient["request"]>>;
import { ToolError } from "@selu-catalogue/kit";
import { parseRelativePath } from "../workspace/relative-path.js";
import { parseMultistatus, type DavEntry } from "./multistatus.js";

/** The WebDAV store an administrator configured (system credentials). */
export interface DavSettings {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
}

const PROPFIND_BODY = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:"><d:prop><d:resourcetype/><d:getcontentlength/><d:getlastmodified/></d:prop></d:propfind>`;

/**
 * A WebDAV client over the capability's egress (Selu's proxy, timeouts, response cap). Remote paths are
 * relative to the configured folder and checked like workspace paths; each component is
 * percent-encoded, so a path can never change the host or climb above the folder.
 */
export class DavClient {
  readonly #base: URL;
  readonly #auth: string | undefined;
  readonly #http: HttpClient;

  constructor(settings: DavSettings, http: HttpClient) {
    let base: URL;
    try {
      base = new URL(settings.url);
    } catch {
      throw new ToolError("WEBDAV_URL is not a valid URL; an administrator should set it to the https:// address of the WebDAV folder");
    }
    if (base.protocol !== "https:") throw new ToolError("WEBDAV_URL must start with https:// (Selu's egress proxy only passes HTTPS)");
    if (!base.pathname.endsWith("/")) base.pathname += "/";
    this.#base = base;
    this.#auth = settings.username ? `Basic ${Buffer.from(`${settings.username}:${settings.password ?? ""}`).toString("base64")}` : undefined;
    this.#http = http;
  }

  /** The URL of a remote path ("/" or "" is the folder itself). */
  url(remotePath: string, field: string, directory = false): { url: string; parts: string[] } {
    const parts = parseRelativePath(remotePath.replace(/^\/+/, ""), field);
    const path = parts.map(encodeURIComponent).join("/");
    return { url: new URL(path + (directory && path ? "/" : ""), this.#base).href, parts };
  }

  async list(remotePath: string, signal: AbortSignal): Promise<DavEntry[]> {
    const { url } = this.url(remotePath, "path", true);
    const res = await this.#send(url, { method: "PROPFIND", headers: { depth: "1", "content-type": "application/xml; charset=utf-8" }, body: PROPFIND_BODY, signal }, "path", remotePath);
    if (res.status !== 207) throw this.#statusError(res, "path", remotePath);
    const self = new URL(url).pathname;
    return parseMultistatus(res.body.toString("utf8")).filter((e) => e.href.replace(/\/$/, "") !== decodeURIComponent(self).replace(/\/$/, ""));
  }

  async download(remotePath: string, signal: AbortSignal): Promise<Buffer> {
    const { url } = this.url(remotePath, "remote_path");
    const res = await this.#send(url, { method: "GET", signal }, "remote_path", remotePath);
    if (res.status !== 200) throw this.#statusError(res, "remote_path", remotePath);
    return res.body;
  }

  async upload(remotePath: string, body: Buffer, overwrite: boolean, signal: AbortSignal): Promise<boolean> {
    const { url, parts } = this.url(remotePath, "remote_path");
    if (parts.length === 0) throw new ToolError("remote_path: name a file inside the remote folder");
    // If-None-Match: * makes the server refuse (412) instead of replacing an existing file (RFC 9110 §13.1.2);
    // not every server honours it, so an existing file is also looked for first.
    if (!overwrite && (await this.#http.request(url, { method: "HEAD", headers: this.#headers(), signal })).status === 200) {
      throw new ToolError(`remote_path: ${remotePath} already exists on the remote store; pass overwrite: true to replace it`);
    }
    // If-None-Match: * makes the server refuse (412) instead of replacing an existing file (RFC 9110 §13.1.2).
    const headers: Record<string, string> = { "content-type": "application/octet-stream", ...(overwrite ? {} : { "if-none-match": "*" }) };
    const res = await this.#send(url, { method: "PUT", headers, body, signal }, "remote_path", remotePath);
    if (res.status === 412) throw new ToolError(`remote_path: ${remotePath} already exists on the remote store; pass overwrite: true to replace it`);
    if (res.status !== 201 && res.status !== 204 && res.status !== 200) throw this.#statusError(res, "remote_path", remotePath);
    return res.status === 201;
  }

  async #send(url: string, init: { method: string; headers?: Record<string, string>; body?: string | Buffer; signal: AbortSignal }, field: string, shown: string): Promise<HttpResponse> {
    const headers = this.#headers(init.headers);
    const res = await this.#http.request(url, { ...init, headers });
    if (res.status === 401 || res.status === 403) throw new ToolError(`the remote store refused the login (HTTP ${res.status}); an administrator should check WEBDAV_USERNAME and WEBDAV_PASSWORD`);
    if (res.status === 404) throw new ToolError(`${field}: ${shown} does not exist on the remote store`);
    return res;
  }

  #headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...extra, ...(this.#auth ? { authorization: this.#auth } : {}) };
  }

  #statusError(res: HttpResponse, field: string, shown: string): ToolError {
    if (res.status === 409) return new ToolError(`${field}: the folder for ${shown} does not exist on the remote store`);
    if (res.status === 507) return new ToolError("the remote store is full (HTTP 507)");
    if (res.status >= 300 && res.status < 400) return new ToolError(`the remote store redirected (HTTP ${res.status}); an administrator should set WEBDAV_URL to the final address`);
    return new ToolError(`the remote store answered HTTP ${res.status} for ${shown}`);
  }
}
