import { describe, expect, it } from "vitest";
import { parseProxyUrl, proxyFromEnv } from "./proxy-config.js";

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString("base64")}`;
const TOKEN = "s3cr3t-t0ken";

describe("proxyFromEnv", () => {
  it("reads Selu's proxy URL into host, port and a Basic authorization, with a credential-free url", () => {
    const proxy = proxyFromEnv({ HTTPS_PROXY: `http://selu:${TOKEN}@egress.selu.internal:8888` });
    expect(proxy).toEqual({
      url: "http://egress.selu.internal:8888",
      host: "egress.selu.internal",
      port: 8888,
      authorization: basic(`selu:${TOKEN}`),
    });
  });

  it("percent-decodes the user and password before encoding them", () => {
    const proxy = proxyFromEnv({ https_proxy: "http://selu:p%40ss%3Aw%2Frd@10.0.0.2:8888" });
    expect(proxy?.authorization).toBe(basic("selu:p@ss:w/rd"));
  });

  it("prefers https_proxy/HTTPS_PROXY over the http variables", () => {
    const proxy = proxyFromEnv({ HTTP_PROXY: "http://plain:1@a.example:1", HTTPS_PROXY: "http://tls:2@b.example:2" });
    expect(proxy?.host).toBe("b.example");
  });

  it("prefers the lowercase variable when both cases are set", () => {
    const proxy = proxyFromEnv({ HTTPS_PROXY: "http://upper.example:1", https_proxy: "http://lower.example:2" });
    expect(proxy?.host).toBe("lower.example");
  });

  it("falls back to HTTP_PROXY when no https variable is set", () => {
    expect(proxyFromEnv({ HTTP_PROXY: "http://selu:t@proxy.example:8888" })?.port).toBe(8888);
  });

  it("treats empty or blank variables as unset", () => {
    expect(proxyFromEnv({ HTTPS_PROXY: "", https_proxy: "  ", HTTP_PROXY: "http://fallback.example:3" })?.host).toBe("fallback.example");
    expect(proxyFromEnv({ HTTPS_PROXY: "" })).toBeUndefined();
  });

  it("returns undefined when no proxy is configured (direct connections)", () => {
    expect(proxyFromEnv({ PATH: "/usr/bin" })).toBeUndefined();
  });

  it("defaults the port to 80 and leaves authorization out when the URL has no credentials", () => {
    expect(proxyFromEnv({ HTTPS_PROXY: "http://proxy.example" })).toEqual({ url: "http://proxy.example:80", host: "proxy.example", port: 80 });
  });

  it("takes an IPv6 proxy host without brackets", () => {
    expect(proxyFromEnv({ HTTPS_PROXY: `http://selu:${TOKEN}@[fd00::8]:8888` })).toMatchObject({ host: "fd00::8", port: 8888, url: "http://[fd00::8]:8888" });
  });
});

describe("parseProxyUrl refuses garbage without echoing the value (it holds the token)", () => {
  it.each([
    ["not a URL", `selu:${TOKEN}@proxy:8888`, /HTTPS_PROXY uses selu:; only http:\/\/ proxies/],
    ["plain garbage", `:::${TOKEN}`, /HTTPS_PROXY is not a valid URL \(expected http:\/\/user:password@host:port\)/],
    ["an https proxy", `https://selu:${TOKEN}@proxy:8888`, /HTTPS_PROXY uses https:; only http:\/\/ proxies \(HTTP CONNECT\) are supported/],
    ["a socks proxy", `socks5://selu:${TOKEN}@proxy:1080`, /uses socks5:/],
    ["a path", `http://selu:${TOKEN}@proxy:8888/${TOKEN}`, /must not have a path, query or fragment/],
    ["a query", `http://selu:${TOKEN}@proxy:8888?t=${TOKEN}`, /must not have a path, query or fragment/],
    ["a port out of range", `http://selu:${TOKEN}@proxy:70000`, /is not a valid URL/],
    ["broken percent-encoding", `http://selu:${TOKEN}%zz%E0%A4%A@proxy:8888`, /credentials that are not valid percent-encoding/],
  ])("refuses %s", (_, value, message) => {
    let error: unknown;
    try {
      parseProxyUrl(value, "HTTPS_PROXY");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it("names the variable that held the bad value", () => {
    expect(() => proxyFromEnv({ http_proxy: "ftp://proxy" })).toThrow(/^http_proxy uses ftp:/);
  });
});
