import type { IncomingMessage } from "node:http";
import { connectCapability, invokeCapability } from "@selu-catalogue/testkit/orchestrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureRoutes } from "./support/pages.js";
import { ALL_PROVIDERS, ID, startSearchWorld, type SearchWorld } from "./support/world.js";

let world: SearchWorld;
beforeAll(async () => {
  world = await startSearchWorld();
  for (const [key, route] of Object.entries(fixtureRoutes())) world.pages.set(key, route);
}, 30_000);
afterAll(async () => world?.close());

function invokeRaw(tool: string, args: unknown, credentials: Record<string, string>, options: { signal?: AbortSignal; deadlineMs?: number }) {
  const client = connectCapability(`127.0.0.1:${world.served.port}`);
  const request = { toolName: tool, argsJson: Buffer.from(JSON.stringify(args)), configJson: Buffer.from(JSON.stringify(credentials)), sessionId: "s1", capabilityId: ID, threadId: "" };
  return invokeCapability(client, request, options).finally(() => client.close());
}

describe("cancellation", () => {
  it("stops reading a stalled page when the caller cancels, closing the connection", async () => {
    let closed: Promise<void> | undefined;
    world.pages.set("slow.example.com/hold", (req: IncomingMessage) => {
      closed = new Promise((resolve) => req.socket.once("close", () => resolve()));
    });
    const controller = new AbortController();
    const call = invokeRaw("fetch_page", { url: "https://slow.example.com/hold" }, {}, { signal: controller.signal }).catch((err: Error) => err);
    while (!closed) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(String(await call)).toMatch(/CANCELLED|Cancelled/);
    const started = Date.now();
    await closed;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(world.served.runtime.inFlightCount).toBe(0);
  });

  it("stops a search waiting on a stalled provider when the caller cancels", async () => {
    let received = false;
    world.brave.respond = () => {
      received = true;
    };
    const controller = new AbortController();
    const call = invokeRaw("web_search", { query: "q" }, { BRAVE_API_KEY: "BSA-cancel" }, { signal: controller.signal }).catch((err: Error) => err);
    while (!received) await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    expect(String(await call)).toMatch(/CANCELLED|Cancelled/);
    await new Promise((r) => setTimeout(r, 100));
    expect(world.served.runtime.inFlightCount).toBe(0);
    world.brave.reset();
  });
});

describe("concurrency", () => {
  it("answers searches and page reads at once, each with its own result", async () => {
    const searches = Array.from({ length: 12 }, (_, i) => world.ok("web_search", { query: `topic ${i}`, count: 2 }, { ...ALL_PROVIDERS, SEARCH_PROVIDERS: i % 2 ? "tavily" : "searxng" }));
    const pages = ["https://news.example.com/2026/octopus", "https://docs.example.org/retries.html", "https://forum.example.net/t/123", "https://files.example.org/tide-report.pdf"].map((url) =>
      world.ok("fetch_page", { url }),
    );
    const results = await Promise.all(searches);
    results.forEach((result, i) => {
      expect(result.query).toBe(`topic ${i}`);
      expect(result.provider).toBe(i % 2 ? "tavily" : "searxng");
      expect((result.results as { title: string }[])[0]!.title).toContain(`topic ${i}`);
    });
    const read = (await Promise.all(pages)) as { content: string }[];
    expect(read[0]!.content).toContain("53 months");
    expect(read[1]!.content).toContain("exponential backoff");
    expect(read[2]!.content).toContain("acetone");
    expect(read[3]!.content).toContain("quay wall");
  });
});
