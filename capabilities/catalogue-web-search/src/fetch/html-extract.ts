import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { WEB_LIMITS } from "../limits.js";
import { elementText } from "./html-text.js";
import { toMarkdown } from "./markdown.js";
import { resolveLink } from "./resolve-link.js";

/** The readable part of an HTML page and what it says about itself. */
export interface ExtractedPage {
  title?: string;
  byline?: string;
  siteName?: string;
  published?: string;
  language?: string;
  content: string;
  /** False when the conversion stopped once it had the characters asked for (a very large page). */
  complete: boolean;
  links: { text: string; url: string }[];
}

/**
 * Denoised HTML past this size skips Readability: its scoring re-reads the text of candidate subtrees,
 * which grows faster than the page, and a page this long is a document whose <article>, <main> or body
 * is the content anyway (see the bench: a 2 MB article).
 */
export const READABILITY_MAX_CHARS = 512 * 1024;

type Element = ReturnType<typeof parseHTML>["document"]["documentElement"];

// Scripts and styles are most of a modern page's bytes and none of its text; dropping them before
// parsing keeps the DOM small. JSON-LD stays: Readability reads the published date and author from it.
const NOISE = /<(script(?![^>]*application\/ld\+json)|style|template|svg)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
// Site navigation is never the content; Readability scores it low but keeps it when the page is short.
const NAVIGATION = "nav,[role=navigation],[role=banner] nav,[aria-hidden=true]";
const FALLBACK_DROP = "script,style,noscript,template,svg,nav,header,footer,aside,form,iframe,button,dialog,[role=navigation],[aria-hidden=true]";

/**
 * Extracts the main content of a page with Mozilla's Readability (the Firefox Reader View engine) over
 * linkedom's DOM, falling back to the <main> or body without navigation when Readability finds no
 * article (or the page is too large for it), and converts it to Markdown (turndown) or plain text,
 * Markdown only as far as `wantChars`. Links are made absolute against the page's base; only http(s)
 * links are listed. Nothing in the page is run.
 */
export function extractHtml(html: string, pageUrl: URL, format: "markdown" | "text", wantChars: number): ExtractedPage {
  const denoised = html.replace(NOISE, "");
  const { document } = parseHTML(denoised);
  for (const el of document.querySelectorAll(NAVIGATION)) el.remove();
  // Metadata lives in <head>: searching only there spares several walks of a large body.
  const head = document.head ?? document;
  const base = baseUrl(head.querySelector("base[href]")?.getAttribute("href"), pageUrl);
  const meta = (selector: string) => head.querySelector(selector)?.getAttribute("content")?.trim() || undefined;
  const language = document.documentElement?.getAttribute("lang")?.trim() || meta('meta[http-equiv="content-language" i]');
  const docTitle = head.querySelector("title")?.textContent?.trim() || undefined;
  const published = meta('meta[property="article:published_time"]') ?? meta('meta[name="date"]') ?? meta('meta[itemprop="datePublished"]');

  // The serializer hands back the article element itself, so it is converted without parsing it again.
  type Article = Omit<NonNullable<ReturnType<Readability<string>["parse"]>>, "content"> & { content: Element };
  let article: Article | null = null;
  if (denoised.length <= READABILITY_MAX_CHARS) {
    const reader = new Readability(document as never, { serializer: (el: unknown) => el, charThreshold: 250 } as never);
    article = reader.parse() as Article | null;
  }
  let root: Element;
  if (article?.content && (article.textContent?.trim().length ?? 0) > 0) {
    root = article.content;
  } else {
    // Readability changes the document it reads: start again from the text when it was run.
    const doc = article === null && denoised.length > READABILITY_MAX_CHARS ? document : parseHTML(denoised).document;
    for (const el of doc.querySelectorAll(FALLBACK_DROP)) el.remove();
    root = (doc.querySelector("article") ?? doc.querySelector("main") ?? doc.body ?? doc.documentElement) as Element;
  }
  const links = listLinks(root, base);
  const { content, complete } = format === "markdown" ? toMarkdown(root as never, wantChars, denoised.length, base) : { content: elementText(root as never), complete: true };
  const title = article?.title?.trim() || docTitle;
  const byline = article?.byline?.trim() || meta('meta[name="author"]');
  const siteName = article?.siteName?.trim() || meta('meta[property="og:site_name"]');
  const date = article?.publishedTime?.trim() || published;
  const lang = article?.lang?.trim() || language;
  return {
    ...(title ? { title } : {}),
    ...(byline ? { byline } : {}),
    ...(siteName ? { siteName } : {}),
    ...(date ? { published: date } : {}),
    ...(lang ? { language: lang } : {}),
    content,
    complete,
    links,
  };
}

function baseUrl(href: string | null | undefined, pageUrl: URL): URL {
  if (!href) return pageUrl;
  try {
    const base = new URL(href, pageUrl);
    return base.protocol === "https:" || base.protocol === "http:" ? base : pageUrl;
  } catch {
    return pageUrl;
  }
}

/** The first {@link WEB_LIMITS.maxLinks} distinct http(s) links of the content, absolute, with their text. */
function listLinks(root: Element, base: URL): ExtractedPage["links"] {
  const links: ExtractedPage["links"] = [];
  const seen = new Set([base.href.split("#")[0]]);
  for (const a of root.querySelectorAll("a[href]")) {
    if (links.length >= WEB_LIMITS.maxLinks) break;
    const url = resolveLink(a.getAttribute("href"), base);
    if (!url || seen.has(url) || seen.has(url.split("#")[0])) continue;
    seen.add(url);
    links.push({ text: (a.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, WEB_LIMITS.maxLinkTextChars), url });
  }
  return links;
}
