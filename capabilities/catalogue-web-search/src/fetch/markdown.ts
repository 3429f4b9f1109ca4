import { strikethrough, tables } from "@joplin/turndown-plugin-gfm";
import TurndownService from "turndown";
import { resolveLink } from "./resolve-link.js";

// linkedom's element, typed as far as it is walked here.
interface DomElement {
  nodeType: number;
  nodeName: string;
  outerHTML: string;
  textContent: string | null;
  childNodes: ArrayLike<DomElement>;
}

/** Content up to this much HTML is converted in one go, and its length is known. */
const WHOLE_MAX = 256 * 1024;
/** Larger content is converted in batches of about this much HTML until enough text is there. */
const BATCH = 32 * 1024;
// Containers whose children are blocks of their own: a large one is split into them.
const CONTAINERS = new Set(["DIV", "SECTION", "ARTICLE", "MAIN", "BODY", "HTML"]);

/**
 * A converter for one page: links are made absolute against its base as they are written (only those
 * converted: a large page's unread part costs nothing), and javascript: or data: links keep their text only.
 */
function markdownConverter(base: URL): TurndownService {
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  turndown.use([tables, strikethrough]);
  turndown.remove(["script", "style", "noscript", "iframe", "form", "button"]);
  const attribute = (node: unknown, name: string) => (node as { getAttribute(n: string): string | null }).getAttribute(name);
  turndown.addRule("absolute-link", {
    filter: (node) => node.nodeName === "A" && Boolean(attribute(node, "href")),
    replacement: (content, node) => {
      const url = resolveLink(attribute(node, "href"), base);
      return url && content.trim() ? `[${content}](${url.replace(/[()\s]/g, encodeURIComponent)})` : content;
    },
  });
  // Images cost characters and say little without being seen: their alt text stays.
  turndown.addRule("image-alt", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (attribute(node, "alt") ?? "").trim();
      return alt ? `[image: ${alt.replace(/[[\]\n]/g, " ")}]` : "";
    },
  });
  return turndown;
}

/**
 * Markdown of `root` (turndown with GitHub tables and strikethrough). Turndown's cost grows with the
 * whole page, so a large page is converted in batches of its blocks only until `wantChars` characters
 * are there; `complete` says whether the whole page was converted. Turndown gets HTML text and parses
 * it with its own DOM: its table rules need `HTMLTableElement.rows`, which linkedom lacks. `pageChars` is the
 * size of the page's HTML; `base` resolves its links.
 */
export function toMarkdown(root: DomElement, wantChars: number, pageChars: number, base: URL): { content: string; complete: boolean } {
  const converter = markdownConverter(base);
  // The page's size bounds the content's, so a page under the bound needs no serialising to measure it.
  if (pageChars <= WHOLE_MAX) return { content: converter.turndown(root.outerHTML).trim(), complete: true };
  const pieces: string[] = [];
  split(root, pieces);
  const parts: string[] = [];
  let length = 0;
  let batch = "";
  for (let i = 0; i < pieces.length; i++) {
    batch += pieces[i]!;
    if (batch.length < BATCH && i < pieces.length - 1) continue;
    const markdown = converter.turndown(batch).trim();
    batch = "";
    if (markdown) {
      parts.push(markdown);
      length += markdown.length + 2;
    }
    if (length > wantChars && i < pieces.length - 1) return { content: parts.join("\n\n"), complete: false };
  }
  return { content: parts.join("\n\n"), complete: true };
}

function split(node: DomElement, out: string[]): void {
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.nodeType === 3) {
      out.push(escapeText(child.textContent ?? ""));
      continue;
    }
    if (child.nodeType !== 1) continue;
    const html = child.outerHTML; // serialised once: it is the costly part of walking a large page
    if (html.length > BATCH && CONTAINERS.has(child.nodeName.toUpperCase())) split(child, out);
    else out.push(html);
  }
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
