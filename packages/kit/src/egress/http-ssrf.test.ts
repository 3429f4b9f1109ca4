import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// Relative, not "@selu-catalogue/testkit": the testkit depends on the kit, and a package cycle breaks turbo.
import { startEgressProxy, type EgressProxy } from "../../../testkit/src/proxy/index.js";
import { createTestCa, startHttpsServer, type LocalServer } from "../../../testkit/src/tls/index.js";
import { EgressError } from "./errors.js";
import { createHttpClient } from "./http.js";
import type { HttpClientOptions } from "./http-types.js";
import { proxyFromEnv } from "./proxy-config.js";

const ca = createTestCa();
const timeouts = { connectMs: 1_000, headersMs: 1_000, bodyMs: 1_000 };
let server: LocalServer;
let proxy: EgressProxy;

/** A resolver answering from a table, like dns.lookup (including `all: true`), counting its calls. */
function tableLookup(table: Record<string, string[]>): LookupFunction & { calls: number } {
  const lookup = ((hostname, options, callback) => {
    lookup.calls += 1;
    const entries: LookupAddress[] = (table[hostname] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (entries.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), "", 0);
    if (options.all) return callback(null, entries);
    callback(null, entries[0]!.address, entries[0]!.family);
  }) as LookupFunction & { calls: number };
  lookup.calls = 0;
  return lookup;
}

beforeAll(async () => {
  server = await startHttpsServer(ca.issue(["127.0.0.1", "internal.example"]), (_req, res) => res.end("internal secrets"));
  proxy = await startEgressProxy({ policy: { mode: "allowlist", hosts: ["*.example.com:443"] } });
});

afterAll(async () => {
  await proxy.close();
  await server.close();
});

function client(extra: Partial<HttpClientOptions> = {}) {
  return createHttpClient({ timeouts, maxResponseBytes: 1024, ca: ca.certPem, ...extra });
}

async function refusal(url: string, extra: Partial<HttpClientOptions> = {}): Promise<EgressError> {
  const before = server.connections;
  const err = await client(extra)
    .request(url)
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(EgressError);
  expect((err as EgressError).code).toBe("blocked_address");
  expect(server.connections).toBe(before);
  return err as EgressError;
}

const hint = "(SSRF guard; a capability that must reach internal hosts sets allowPrivateNetworks)";

describe("internal IP literals are refused before any connection", () => {
  it("refuses IPv4 loopback", async () => {
    const err = await refusal(`https://127.0.0.1:${server.port}/admin?key=SECRET`);
    expect(err.message).toBe(`refusing to connect to 127.0.0.1: it is a loopback address, not a public one ${hint}`);
  });

  it("refuses IPv6 loopback [::1]", async () => {
    expect((await refusal(`https://[::1]:${server.port}/`)).message).toMatch(/^refusing to connect to ::1: it is a loopback address/);
  });

  it.each([
    ["a private 10.x address", "https://10.0.0.1/", "private-network"],
    ["a private 172.16/12 address", "https://172.20.1.1/", "private-network"],
    ["a private 192.168.x address", "https://192.168.1.1/", "private-network"],
    ["the cloud metadata address", "http://169.254.169.254/latest/meta-data/", "link-local"],
    ["the unspecified address 0.0.0.0", "http://0.0.0.0:8080/", "unspecified"],
    ["an IPv6 link-local address", "https://[fe80::1]/", "link-local"],
    ["an IPv6 unique-local address", "https://[fd00:ec2::254]/", "unique-local"],
    ["the IPv6 unspecified address", "https://[::]/", "unspecified"],
    ["a multicast address", "https://224.0.0.251/", "multicast"],
  ])("refuses %s", async (_, url, kind) => {
    expect((await refusal(url)).message).toMatch(new RegExp(`: it is an? ${kind} address, not a public one`));
  });

  it.each([
    ["IPv4-mapped IPv6 loopback", "https://[::ffff:127.0.0.1]/"],
    ["IPv4-mapped IPv6 metadata address", "https://[::ffff:169.254.169.254]/"],
    ["NAT64-embedded loopback", "https://[64:ff9b::127.0.0.1]/"],
  ])("refuses %s (an IPv4 address in IPv6 clothing)", async (_, url) => {
    expect((await refusal(url)).message).toMatch(/^refusing to connect to [0-9a-f:]+: it is a (loopback|link-local) address/);
  });

  it.each([
    ["decimal", "https://2130706433/"],
    ["hexadecimal", "https://0x7f000001/"],
    ["octal", "https://0177.0.0.1/"],
    ["shortened", "https://127.1/"],
    ["mixed-radix", "https://0x7f.0.0.1/"],
  ])("refuses loopback written in %s form (URL parsing normalises it first)", async (_, url) => {
    expect((await refusal(url)).message).toMatch(/^refusing to connect to 127\.0\.0\.1: it is a loopback address/);
  });
});

describe("names that lead inside", () => {
  it.each(["localhost", "LOCALHOST", "api.localhost", "localhost."])("refuses %s without asking DNS", async (name) => {
    const lookup = tableLookup({});
    const err = await refusal(`https://${name}:${server.port}/`, { lookup });
    expect(err.message).toMatch(/it is a loopback address/);
    expect(lookup.calls).toBe(0);
  });

  it("refuses a hostname that resolves to 127.0.0.1, checking the address the socket would use", async () => {
    const lookup = tableLookup({ "internal.example": ["127.0.0.1"] });
    const err = await refusal(`https://internal.example:${server.port}/?token=SECRET`, { lookup });
    expect(err.message).toBe(`refusing to connect to internal.example (127.0.0.1): it is a loopback address, not a public one ${hint}`);
    expect(err.message).not.toContain("SECRET");
    expect(lookup.calls).toBeGreaterThan(0);
  });

  it("refuses a name when any of its addresses is internal (happy eyeballs could pick that one)", async () => {
    const lookup = tableLookup({ "mixed.example": ["2606:4700::1111", "10.1.2.3"] });
    expect((await refusal("https://mixed.example/", { lookup })).message).toMatch(/^refusing to connect to mixed\.example \(10\.1\.2\.3\)/);
  });

  it("refuses a name that rebinds to an internal address after an earlier public answer (DNS rebinding)", async () => {
    const answers = ["93.184.215.14", "127.0.0.1"];
    const lookup: LookupFunction = (hostname, options, callback) => tableLookup({ [hostname]: [answers.shift() ?? "127.0.0.1"] })(hostname, options, callback);
    // A capability's own pre-check sees the public answer...
    const first = await new Promise((resolve) => lookup("rebind.example", {}, (_err, address) => resolve(address)));
    expect(first).toBe("93.184.215.14");
    // ...but the connection resolves again, and the answer it connects to is the one checked.
    const err = await refusal(`https://rebind.example:${server.port}/`, { lookup });
    expect(err.message).toMatch(/^refusing to connect to rebind\.example \(127\.0\.0\.1\)/);
  });
});

describe("allowPrivateNetworks", () => {
  it("lets a capability that needs it reach a loopback address", async () => {
    const res = await client({ allowPrivateNetworks: true }).request(`https://127.0.0.1:${server.port}/`);
    expect(res.body.toString()).toBe("internal secrets");
  });

  it("uses the given lookup for names, and still verifies TLS against the name", async () => {
    const lookup = tableLookup({ "internal.example": ["127.0.0.1"] });
    const res = await client({ allowPrivateNetworks: true, lookup }).request(`https://internal.example:${server.port}/`);
    expect(res.status).toBe(200);
    expect(lookup.calls).toBe(1);
  });
});

describe("through the egress proxy", () => {
  it("refuses an internal literal before sending a CONNECT", async () => {
    const before = proxy.attempts.length;
    await refusal("https://169.254.169.254/", { proxy: proxyFromEnv(proxy.env) });
    await refusal("https://[::ffff:10.0.0.1]/", { proxy: proxyFromEnv(proxy.env) });
    expect(proxy.attempts.length).toBe(before);
  });

  it("refuses localhost, which the proxy would resolve to its own loopback", async () => {
    const before = proxy.attempts.length;
    await refusal("https://localhost:8888/", { proxy: proxyFromEnv(proxy.env) });
    expect(proxy.attempts.length).toBe(before);
  });

  it.each(["localhost.localdomain", "ip6-localhost", "ip6-loopback", "localhost6.localdomain6", "metadata.google.internal", "metadata.goog.", "instance-data"])(
    "refuses %s, a loopback or cloud metadata name the proxy's host would resolve",
    async (name) => {
      const before = proxy.attempts.length;
      const err = await refusal(`https://${name}/`, { proxy: proxyFromEnv(proxy.env) });
      expect(err.message).toMatch(/it is a (loopback|link-local) address/);
      expect(proxy.attempts.length).toBe(before);
    },
  );

  it("leaves public names and addresses to the proxy's policy (no over-blocking)", async () => {
    const err = await client({ proxy: proxyFromEnv(proxy.env) })
      .request("https://93.184.215.14/")
      .catch((e: unknown) => e);
    expect((err as EgressError).code).toBe("proxy_refused");
    expect(proxy.attempts.at(-1)).toMatchObject({ host: "93.184.215.14", port: 443, decision: "denied" });
  });
});
