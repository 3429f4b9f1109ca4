import { readFileSync } from "node:fs";
import { bigArticle } from "../fixtures/big-article.js";
import type { PageRoute } from "./world.js";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/pages/${name}`, import.meta.url));
const redirect =
  (status: number, location: string): PageRoute =>
  (_req, res) =>
    res.writeHead(status, { location }).end();

/** The fixture sites, by `host/path`, as the page server answers them. */
export function fixtureRoutes(): Record<string, PageRoute> {
  return {
    "news.example.com/2026/octopus": { body: fixture("article.html") },
    "news.example.com/injection": { body: fixture("injection.html") },
    "docs.example.org/retries.html": { body: fixture("docs.html") },
    "forum.example.net/t/123": { body: fixture("forum.html") },
    "app.example.com/releases/7": { body: fixture("spa-heavy.html") },
    "app.example.com/products": { body: fixture("landing.html") },
    // No charset in the header: the <meta> declarations decide.
    "alt.example.de/muenchen": { type: "text/html", body: fixture("latin1-de.html") },
    "alt.example.de/kyoto": { type: "text/html", body: fixture("shift-jis-ja.html") },
    "files.example.org/tide-report.pdf": { type: "application/pdf", body: fixture("tide-report.pdf") },
    "files.example.org/notice.txt": { type: "text/plain; charset=utf-8", body: fixture("notice.txt") },
    "files.example.org/readings.json": { type: "application/json", body: fixture("readings.json") },
    "files.example.org/logo.png": { type: "image/png", body: Buffer.from("89504e470d0a1a0a0000000d49484452", "hex") },
    "files.example.org/feed.xml": { type: "application/rss+xml", body: "<rss><channel><title>x</title></channel></rss>" },
    "files.example.org/untyped.pdf": { type: "", body: fixture("tide-report.pdf") },
    "big.example.com/article": { body: bigArticle(2 * 1024 * 1024) },
    "big.example.com/huge": { body: "<html><body>" + "<p>filler paragraph of a page far too large to read</p>".repeat(120_000) + "</body></html>" },
    "short.example.com/a": redirect(301, "https://short.example.com/b"),
    "short.example.com/b": redirect(302, "//news.example.com/go"),
    "news.example.com/go": redirect(307, "/2026/octopus"),
    "short.example.com/loop": redirect(302, "/loop"),
    "short.example.com/to-http": redirect(301, "http://news.example.com/2026/octopus"),
    "short.example.com/to-metadata": redirect(302, "http://169.254.169.254/latest/meta-data/"),
    "short.example.com/to-loopback-v6": redirect(302, "https://[::ffff:127.0.0.1]:8443/admin"),
    "short.example.com/to-private-name": redirect(302, "https://intranet-wiki.example.com/"),
    "short.example.com/to-single-label": redirect(302, "https://selu:8888/"),
    "short.example.com/to-file": redirect(302, "file:///etc/passwd"),
    "short.example.com/to-gopher": redirect(302, "gopher://news.example.com/"),
    "slow.example.com/stall": () => {}, // accepts the request, never answers
    "public.example.com/": { body: fixture("forum.html") },
  };
}
