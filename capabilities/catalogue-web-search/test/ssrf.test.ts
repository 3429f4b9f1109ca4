import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureRoutes } from "./support/pages.js";
import { startSearchWorld, type SearchWorld } from "./support/world.js";

// fetch_page must not become a way into the operator's network: every spelling of an internal address,
// names that only an internal resolver answers, names resolving inside, redirects there and other
// schemes are refused before the proxy is asked to connect. (The proxy double dials nothing but mapped
// names, so a miss here fails the assertion on its log and never reaches a real internal address.)
let world: SearchWorld;
beforeAll(async () => {
  world = await startSearchWorld();
  for (const [key, route] of Object.entries(fixtureRoutes())) world.pages.set(key, route);
}, 30_000);
afterAll(async () => world?.close());

const GUARD = /refusing to fetch|refusing to connect/;

async function refused(url: string, expected: RegExp = GUARD): Promise<void> {
  const before = world.proxy.attempts.length;
  const error = await world.fails("fetch_page", { url });
  expect(error).toMatch(/^url/);
  expect(error).toMatch(expected);
  expect(world.proxy.attempts.slice(before)).toEqual([]);
}

describe("IPv4 addresses in every spelling", () => {
  it.each([
    ["loopback, dotted", "https://127.0.0.1/", /loopback/],
    ["loopback, elsewhere in 127/8", "https://127.10.20.30/admin", /loopback/],
    ["loopback, decimal", "https://2130706433/", /loopback/],
    ["loopback, octal", "https://0177.0.0.1/", /loopback/],
    ["loopback, hex", "https://0x7f000001/", /loopback/],
    ["loopback, dotted hex", "https://0x7f.0x0.0x0.0x1/", /loopback/],
    ["loopback, short form", "https://127.1/", /loopback/],
    ["loopback, trailing dot", "https://127.0.0.1./", /loopback/],
    ["loopback, ideographic full stops", "https://127。0。0。1/", /loopback/],
    ["loopback, with a port", "https://127.0.0.1:8443/", /loopback/],
    ["unspecified 0.0.0.0", "https://0.0.0.0/", /unspecified/],
    ["unspecified, as 0", "https://0/", /unspecified/],
    ["private 10/8", "https://10.0.0.1/", /private/],
    ["private 172.16/12", "https://172.16.5.4/", /private/],
    ["private 192.168/16", "https://192.168.1.1/router", /private/],
    ["carrier-grade NAT 100.64/10", "https://100.64.0.1/", /shared/],
    ["cloud metadata 169.254.169.254", "https://169.254.169.254/latest/meta-data/", /link-local/],
    ["cloud metadata, decimal", "https://2852039166/latest/meta-data/", /link-local/],
    ["cloud metadata over http", "http://169.254.169.254/computeMetadata/v1/", /link-local/],
    ["Alibaba Cloud metadata 100.100.100.200", "https://100.100.100.200/latest/meta-data/", /shared/],
    ["IETF protocol assignments 192.0.0.0/24 (Oracle Cloud metadata)", "https://192.0.0.192/", /reserved/],
    ["benchmarking 198.18/15", "https://198.18.0.1/", /reserved/],
    ["documentation 203.0.113/24", "https://203.0.113.7/", /reserved/],
    ["multicast", "https://224.0.0.1/", /multicast/],
    ["broadcast", "https://255.255.255.255/", /reserved/],
  ])("refuses %s (%s)", async (_name, url, kind) => {
    await refused(url, kind);
  });
});

describe("IPv6 addresses, and IPv6 forms carrying IPv4", () => {
  it.each([
    ["loopback ::1", "https://[::1]/", /loopback/],
    ["loopback, expanded", "https://[0:0:0:0:0:0:0:1]/", /loopback/],
    ["unspecified ::", "https://[::]/", /unspecified/],
    ["IPv4-mapped loopback, dotted", "https://[::ffff:127.0.0.1]/", /loopback/],
    ["IPv4-mapped loopback, expanded", "https://[0:0:0:0:0:ffff:7f00:1]/", /loopback/],
    ["IPv4-mapped cloud metadata, hex", "https://[::ffff:a9fe:a9fe]/", /link-local/],
    ["NAT64 of loopback", "https://[64:ff9b::7f00:1]/", /loopback/],
    ["NAT64 of cloud metadata", "https://[64:ff9b::169.254.169.254]/", /link-local/],
    ["6to4 of loopback", "https://[2002:7f00:1::]/", /loopback/],
    ["link-local fe80::/10", "https://[fe80::1]/", /link-local/],
    ["unique-local (AWS IPv6 metadata fd00:ec2::254)", "https://[fd00:ec2::254]/latest/meta-data/", /unique-local/],
    ["multicast ff02::1", "https://[ff02::1]/", /multicast/],
  ])("refuses %s (%s)", async (_name, url, kind) => {
    await refused(url, kind);
  });
});

describe("names only an internal resolver answers", () => {
  it.each([
    ["localhost", "https://localhost/"],
    ["localhost, upper case with a trailing dot", "https://LOCALHOST./"],
    ["a name under .localhost", "https://admin.localhost/"],
    ["localhost.localdomain", "https://localhost.localdomain/"],
    ["Debian's ip6-localhost", "https://ip6-localhost/"],
    ["a single-label name (a sibling container)", "https://selu:8888/"],
    ["Docker's host name", "https://host.docker.internal/"],
    ["GCP's metadata server by name", "https://metadata.google.internal/computeMetadata/v1/"],
    ["an mDNS name", "https://printer.local/"],
    ["a home network name", "https://router.home.arpa/"],
  ])("refuses %s (%s)", async (_name, url) => {
    await refused(url, /refusing to fetch/);
  });
});

describe("names that resolve inside (where the capability resolves)", () => {
  it.each([
    ["to a private address", "https://intranet-wiki.example.com/", /resolves to 10\.1\.2\.3, a private address/],
    ["to the metadata address", "https://metadata-alias.example.com/", /resolves to 169\.254\.169\.254, a link-local address/],
    ["to a public and a loopback address (rebinding)", "https://rebind.example.com/", /resolves to 127\.0\.0\.1, a loopback address/],
    ["to IPv6 loopback", "https://v6-loopback.example.com/", /resolves to ::1, a loopback address/],
  ])("refuses a name resolving %s", async (_name, url, expected) => {
    await refused(url, expected);
  });

  it("fetches a name resolving to a public address", async () => {
    expect(((await world.ok("fetch_page", { url: "https://public.example.com/" })) as { content: string }).content).toContain("acetone");
  });
});

describe("redirects to internal targets", () => {
  it.each([
    ["to the metadata address over http", "https://short.example.com/to-metadata", /refusing to fetch 169\.254\.169\.254/],
    ["to IPv4-mapped loopback", "https://short.example.com/to-loopback-v6", /refusing to fetch ::ffff:7f00:1/],
    ["to a name resolving inside", "https://short.example.com/to-private-name", /intranet-wiki\.example\.com: it resolves to 10\.1\.2\.3/],
    ["to a single-label name", "https://short.example.com/to-single-label", /refusing to fetch selu/],
    ["to a file: URL", "https://short.example.com/to-file", /only http and https pages can be fetched, not file: URLs/],
    ["to a gopher: URL", "https://short.example.com/to-gopher", /not gopher: URLs/],
  ])("refuses a redirect %s", async (_name, url, expected) => {
    const before = world.proxy.attempts.length;
    const error = await world.fails("fetch_page", { url });
    expect(error).toMatch(/^url \(redirected by short\.example\.com\): /);
    expect(error).toMatch(expected);
    // Only the first hop went out (its tunnel may be one kept alive from an earlier test).
    expect(world.proxy.attempts.slice(before).filter((a) => a.host !== "short.example.com")).toEqual([]);
  });
});

describe("schemes and URL forms", () => {
  it.each([
    ["file:", "file:///etc/passwd", /not file: URLs/],
    ["ftp:", "ftp://ftp.example.org/pub/", /not ftp: URLs/],
    ["gopher:", "gopher://127.0.0.1:6379/_INFO", /not gopher: URLs/],
    ["data:", "data:text/html,<h1>hi</h1>", /not data: URLs/],
    ["javascript:", "javascript:alert(1)", /not javascript: URLs/],
    ["credentials in the URL", "https://admin:secret@news.example.com/", /user name or password/],
    ["a relative URL", "/etc/passwd", /is not an absolute URL/],
  ])("refuses %s (%s)", async (_name, url, expected) => {
    await refused(url, expected);
  });
});

describe("the operator's setting", () => {
  it("lets FETCH_ALLOW_PRIVATE_NETWORKS=true reach an internal name, and only then", async () => {
    world.pages.set("docs.example.org/wiki", { body: "<html><body><article><p>Internal wiki page with enough words in it to count as an article for the reader view.</p></article></body></html>" });
    await refused("https://intranet-wiki.example.com/");
    // With the setting, the name is not refused by the capability (the proxy double then can't reach it).
    const outcome = await world.call("fetch_page", { url: "https://intranet-wiki.example.com/" }, { FETCH_ALLOW_PRIVATE_NETWORKS: "true" });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).not.toMatch(GUARD);
    expect(world.proxy.attempts.at(-1)?.host).toBe("intranet-wiki.example.com");
  });
});
