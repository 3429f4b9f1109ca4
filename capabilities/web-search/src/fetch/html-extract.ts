import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";
import { WEB_LIMITS } from "../limits.js";
import { elementText } from "./html-text.js";

/** The readable part of an HTML page and what it says about itself. */
export interface ExtractedPage {
  title?: string;
  byline?: string;
  siteName?: string;
  published?: string;
  language?: string;
  content: string;
  links: { text: string; url: string }[];
}

type Element = ReturnType<typeof parseHTML>["document"]["documentElement"];

// Scripts and styles are most of a modern page's bytes and none of its text; dropping them before
// parsing keeps the DOM small. JSON-LD stays: Readability reads the published date and author from it.
const NOISE = /<(script(?![^>]*application\/ld\+json)|style|template|svg)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const FALLBACK_DROP = "script,style,noscript,template,svg,nav,header,footer,aside,form,iframe,button,dialog,[role=navigation],[aria-hidden=true]";

let turndown: TurndownService | undefined;

function markdownConverter(): TurndownService {
  if (turndown) return turndown;
  turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  turndown.remove(["script", "style", "noscript", "iframe", "form", "button"]);
  // Images cost characters and say little without being seen: their alt text stays.
  turndown.addRule("image-alt", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = ((node as unknown as { getAttribute(n: string): string | null }).getAttribute("alt") ?? "").trim();
      return alt ? `[image: ${alt.replace(/[[\]\n]/g, " ")}]` : "";
    },
  });
  return turndown;
}

/**
 * Extracts the main content of a page with Mozilla's Readability (the Firefox Reader View engine) over
 * linkedom's DOM, falling back to the body without navigation when Readability finds no article, and
 * converts it to Markdown (turndown) or plain text. Links are made absolute against the page's base;
 * only http(s) links are listed. Nothing in the page is run.
 */
export function extractHtml(html: string, pageUrl: URL, format: "markdown" | "text"): ExtractedPage {
  const { document } = parseHTML(html.replace(NOISE, ""));
  const base = baseUrl(document.querySelector("base[href]")?.getAttribute("href"), pageUrl);
  const meta = (selector: string) => document.querySelector(selector)?.getAttribute("content")?.trim() || undefined;
  const language = document.documentElement?.getAttribute("lang")?.trim() || meta('meta[http-equiv="content-language" i]');
  const docTitle = document.querySelector("title")?.textContent?.trim() || undefined;
  const published = meta('meta[property="article:published_time"]') ?? meta('meta[name="date"]') ?? meta('meta[itemprop="datePublished"]');

  // The serializer hands back the article element itself, so it is converted without parsing it again.
  const reader = new Readability(document as never, { serializer: (el: unknown) => el, charThreshold: 250 } as never);
  const article = reader.parse() as (Omit<NonNullable<ReturnType<Readability<string>["parse"]>>, "content"> & { content: Element }) | null;
  let root: Element;
  if (article?.content && (article.textContent?.trim().length ?? 0) > 0) {
    root = article.content;
  } else {
    const { document: again } = parseHTML(html.replace(NOISE, ""));
    for (const el of again.querySelectorAll(FALLBACK_DROP)) el.remove();
    root = (again.querySelector("main") ?? again.body ?? again.documentElement) as Element;
  }
  const links = absolutiseLinks(root, base);
  const content = format === "markdown" ? markdownConverter().turndown(root as never).trim() : elementText(root as never);
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

/** Rewrites hrefs and srcs to absolute URLs (dropping javascript:, data: and the like) and lists the links. */
function absolutiseLinks(root: Element, base: URL): ExtractedPage["links"] {
  const links: ExtractedPage["links"] = [];
  const seen = new Set<string>();
  for (const a of root.querySelectorAll("a[href]")) {
    const url = resolve(a.getAttribute("href"), base);
    if (!url) {
      a.removeAttribute("href");
      continue;
    }
    a.setAttribute("href", url);
    const text = (a.textContent ?? "").replace(/\s+/g, " ").trim();
    if (seen.has(url) || links.length >= WEB_LIMITS.maxLinks || url.split("#")[0] === base.href.split("#")[0]) continue;
    seen.add(url);
    links.push({ text: text.slice(0, WEB_LIMITS.maxLinkTextChars), url });
  }
  for (const img of root.querySelectorAll("img[src]")) {
    const url = resolve(img.getAttribute("src"), base);
    if (url) img.setAttribute("src", url);
    else img.removeAttribute("src");
  }
  return links;
}

function resolve(href: string | null, base: URL): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href.trim(), base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}
