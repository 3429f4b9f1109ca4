import { ToolError, isAbortError } from "@selu-catalogue/kit";
import type { HttpClient, HttpResponse } from "@selu-catalogue/kit/egress";
import { EgressError } from "@selu-catalogue/kit/egress";
import { WEB_LIMITS } from "../limits.js";
import { refuseInternalResolution, type LookupAll } from "./resolve-check.js";
import { checkPageUrl } from "./url-policy.js";

/** A page as fetched: the final URL after redirects, its head and body. */
export interface FetchedDocument {
  url: URL;
  /** Every URL before the final one, in order. */
  redirects: string[];
  /** True when an http:// URL (given or redirected to) was fetched over https. */
  upgraded: boolean;
  status: number;
  headers: HttpResponse["headers"];
  body: Buffer;
}

export interface FetchOptions {
  http: HttpClient;
  signal: AbortSignal;
  allowPrivate: boolean;
  lookup: LookupAll;
  /** Time for the container's own DNS pre-check of each host, in ms. */
  resolveTimeoutMs: number;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,application/pdf;q=0.7,*/*;q=0.1";

/**
 * GETs a page, following redirects itself so that every hop passes the same checks as the first URL:
 * the URL policy, the DNS pre-check and the kit's guard on the connection. The body is capped while it
 * is read (the kit's client stops past `WEB_LIMITS.maxPageBytes`).
 * @throws {ToolError} with `url:` and what to do.
 */
export async function fetchDocument(raw: string, options: FetchOptions): Promise<FetchedDocument> {
  const redirects: string[] = [];
  let upgraded = false;
  let field = "url";
  let target = checkPageUrl(raw, field, options.allowPrivate);
  for (let request = 1; ; request++) {
    const { url } = target;
    upgraded ||= target.upgraded;
    if (!options.allowPrivate) await refuseInternalResolution(url.hostname, field, options.lookup, options.resolveTimeoutMs);
    const response = await get(url, options, target.upgraded);
    const location = response.headers.location;
    if (REDIRECTS.has(response.status) && typeof location === "string") {
      if (request >= WEB_LIMITS.maxRequests) {
        throw new ToolError(`url: more than ${WEB_LIMITS.maxRequests - 1} redirects (last from ${url.host}); give the page's final URL`);
      }
      redirects.push(url.href);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new ToolError(`url: ${url.host} redirects to something that is not a URL`);
      }
      field = `url (redirected by ${url.host})`;
      target = checkPageUrl(next, field, options.allowPrivate);
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      throw new ToolError(`url: ${url.host} answered HTTP ${response.status}${statusHint(response.status)}`);
    }
    return { url, redirects, upgraded, status: response.status, headers: response.headers, body: response.body };
  }
}

async function get(url: URL, options: FetchOptions, upgraded: boolean): Promise<HttpResponse> {
  try {
    return await options.http.request(url, { headers: { accept: ACCEPT, "accept-language": "en;q=0.9, *;q=0.5" }, signal: options.signal });
  } catch (err) {
    if (isAbortError(err) || options.signal.aborted) throw err;
    if (!(err instanceof EgressError)) throw err;
    let message = err.message;
    if (err.code === "too_large") message = `the page is larger than ${WEB_LIMITS.maxPageBytes / (1024 * 1024)} MiB, the most fetch_page reads (${err.message})`;
    if (upgraded && (err.code === "tls" || err.code === "network" || err.code === "timeout")) {
      message += "; the URL was given as http:// and fetched over https (Selu's egress proxy only tunnels https), which this site may not offer";
    }
    throw new ToolError(`url: ${message}`, { cause: err });
  }
}

function statusHint(status: number): string {
  if (status === 404 || status === 410) return " (no such page); check the URL";
  if (status === 401 || status === 403) return " (the page needs a login or refuses automated readers)";
  if (status === 429) return " (rate limited); try again later";
  if (status >= 500) return " (a fault on the site's side); try again later";
  return "";
}
