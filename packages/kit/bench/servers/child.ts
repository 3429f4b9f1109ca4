// What both bench servers share: the port to bind, and reporting CPU time and RSS to the parent over IPC.
// Kept identical for the kit and the bare server so its (tiny) cost is the same on both sides.
import { readFileSync } from "node:fs";
import type { Report, ReportRequest } from "../protocol.ts";

const SAMPLE_MS = 20;

/** The port the parent chose (BENCH_PORT). */
export function benchPort(): number {
  const port = Number(process.env.BENCH_PORT);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`BENCH_PORT must be a port, got ${process.env.BENCH_PORT}`);
  return port;
}

/**
 * Anonymous resident memory (RssAnon, bytes): RSS without the file-backed pages (the node binary's
 * text, shared libraries), which the kernel can drop and reload under memory pressure.
 */
function rssAnon(): number {
  const status = readFileSync("/proc/self/status", "latin1");
  const at = status.indexOf("RssAnon:");
  return at < 0 ? 0 : Number.parseInt(status.slice(at + 8, status.indexOf("kB", at)), 10) * 1024;
}

/** Samples RSS every 20 ms, answers report requests, and exits when the parent goes away. */
export function startReporting(): void {
  let maxRss = process.memoryUsage.rss();
  let maxRssAnon = rssAnon();
  let samples = 1;
  setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss > maxRss) maxRss = rss;
    const anon = rssAnon();
    if (anon > maxRssAnon) maxRssAnon = anon;
    samples++;
  }, SAMPLE_MS).unref();
  process.on("message", (msg: ReportRequest) => {
    if (msg?.type !== "report") return;
    const cpu = process.cpuUsage();
    const mem = process.memoryUsage();
    if (mem.rss > maxRss) maxRss = mem.rss;
    const anon = rssAnon();
    if (anon > maxRssAnon) maxRssAnon = anon;
    const report: Report = {
      type: "report",
      id: msg.id,
      userUs: cpu.user,
      systemUs: cpu.system,
      rss: mem.rss,
      maxRss,
      rssAnon: anon,
      maxRssAnon,
      rssSamples: samples,
      heapTotal: mem.heapTotal,
      heapUsed: mem.heapUsed,
      external: mem.external,
      arrayBuffers: mem.arrayBuffers,
    };
    process.send?.(report);
  });
  // The parent died or closed the channel: don't linger.
  process.on("disconnect", () => process.exit(0));
}

export function announce(port: number): void {
  process.send?.({ type: "listening", port });
}
