import { describe, expect, it } from "vitest";
import { isAllowedByPolicy, matchesHostPattern, parseHostPort, type NetworkPolicy } from "./host-policy.js";

const allow = (hosts: string[]): NetworkPolicy => ({ mode: "allowlist", hosts });
const to = (authority: string) => {
  const target = parseHostPort(authority);
  if (!target) throw new Error(`test target ${authority} does not parse`);
  return target;
};

describe("modes", () => {
  it("none denies everything, even a host listed in hosts", () => {
    expect(isAllowedByPolicy({ mode: "none", hosts: ["example.com"] }, to("example.com:443"))).toBe(false);
  });

  it("any allows every well-formed target", () => {
    expect(isAllowedByPolicy({ mode: "any", hosts: [] }, to("anything.example:8443"))).toBe(true);
  });

  it("an empty allowlist denies everything", () => {
    expect(isAllowedByPolicy(allow([]), to("example.com:443"))).toBe(false);
  });
});

describe("exact host and port", () => {
  it("host:port allows that host on that port", () => {
    expect(isAllowedByPolicy(allow(["api.example.com:443"]), to("api.example.com:443"))).toBe(true);
  });

  it("host:port denies the same host on another port (port mismatch)", () => {
    expect(isAllowedByPolicy(allow(["api.example.com:443"]), to("api.example.com:22"))).toBe(false);
  });

  it("a bare host allows any port", () => {
    expect(isAllowedByPolicy(allow(["api.example.com"]), to("api.example.com:8443"))).toBe(true);
  });

  it("a leading zero in the requested port still means the same port", () => {
    expect(isAllowedByPolicy(allow(["api.example.com:443"]), to("api.example.com:0443"))).toBe(true);
  });

  it("a zero-padded port in the entry never matches (Selu compares the text)", () => {
    expect(isAllowedByPolicy(allow(["api.example.com:0443"]), to("api.example.com:443"))).toBe(false);
  });
});

describe("wildcard suffixes", () => {
  it("*.suffix allows a direct subdomain", () => {
    expect(matchesHostPattern("*.example.com", to("api.example.com:443"))).toBe(true);
  });

  it("*.suffix allows deeper subdomains", () => {
    expect(matchesHostPattern("*.example.com", to("a.b.example.com:443"))).toBe(true);
  });

  it("*.suffix does not allow the bare suffix", () => {
    expect(matchesHostPattern("*.example.com", to("example.com:443"))).toBe(false);
  });

  it("*.suffix does not allow a name that merely ends with the suffix text (prefix vulnerability)", () => {
    expect(matchesHostPattern("*.example.com", to("evilexample.com:443"))).toBe(false);
  });

  it("*.suffix does not allow the suffix followed by an attacker's domain", () => {
    expect(matchesHostPattern("*.example.com", to("api.example.com.evil.net:443"))).toBe(false);
  });

  it("*.suffix:port denies a subdomain on another port", () => {
    expect(matchesHostPattern("*.example.com:443", to("api.example.com:80"))).toBe(false);
    expect(matchesHostPattern("*.example.com:443", to("api.example.com:443"))).toBe(true);
  });

  it("a lone * or *. matches nothing (mode any is the way to allow all)", () => {
    expect(matchesHostPattern("*", to("example.com:443"))).toBe(false);
    expect(matchesHostPattern("*.", to("example.com:443"))).toBe(false);
  });
});

describe("exact names are not prefixes or suffixes", () => {
  it("example.com does not allow example.com.evil.net", () => {
    expect(matchesHostPattern("example.com", to("example.com.evil.net:443"))).toBe(false);
  });

  it("example.com does not allow sub.example.com (only *.example.com does)", () => {
    expect(matchesHostPattern("example.com", to("sub.example.com:443"))).toBe(false);
  });

  it("example.com does not allow notexample.com", () => {
    expect(matchesHostPattern("example.com", to("notexample.com:443"))).toBe(false);
  });
});

describe("case", () => {
  it("matches names case-insensitively both ways", () => {
    expect(matchesHostPattern("API.Example.COM:443", to("api.example.com:443"))).toBe(true);
    expect(matchesHostPattern("*.example.com", to("API.EXAMPLE.COM:443"))).toBe(true);
    expect(matchesHostPattern("api.example.com", { host: "Api.Example.Com", port: 1 })).toBe(true);
  });
});

describe("trailing dots", () => {
  it("a trailing-dot target does not match an entry without it (names compare as written)", () => {
    expect(matchesHostPattern("example.com", to("example.com.:443"))).toBe(false);
    expect(matchesHostPattern("*.example.com", to("api.example.com.:443"))).toBe(false);
  });

  it("a double trailing dot is not a valid CONNECT target", () => {
    expect(parseHostPort("example.com..:443")).toBeUndefined();
  });
});

describe("IP literals", () => {
  it("an IPv6 entry never matches, with or without brackets or port (Selu compares the text)", () => {
    expect(matchesHostPattern("[::1]:443", to("[::1]:443"))).toBe(false);
    expect(matchesHostPattern("[2001:db8::1]", to("[2001:db8::1]:8443"))).toBe(false);
    expect(matchesHostPattern("2001:db8::1", to("[2001:db8::1]:8443"))).toBe(false);
  });

  it("a user's deny rule wins over the allowlist and over mode any", () => {
    expect(isAllowedByPolicy({ mode: "any", hosts: [], deny: ["*.tracker.example"] }, to("a.tracker.example:443"))).toBe(false);
    expect(isAllowedByPolicy({ mode: "allowlist", hosts: ["api.example.com"], deny: ["api.example.com:443"] }, to("api.example.com:443"))).toBe(false);
  });

  it("an IPv6 entry does not match an IPv4 target or a different address", () => {
    expect(matchesHostPattern("[::1]", to("127.0.0.1:443"))).toBe(false);
    expect(matchesHostPattern("[::1]", to("[::2]:443"))).toBe(false);
  });

  it("a decimal IPv4 spelling does not match the dotted allowlist entry", () => {
    expect(matchesHostPattern("127.0.0.1", to("2130706433:443"))).toBe(false);
  });
});

describe("CONNECT target parsing", () => {
  it("parses host:port and [v6]:port, lowercasing the host", () => {
    expect(parseHostPort("API.example.com:443")).toEqual({ host: "api.example.com", port: 443 });
    expect(parseHostPort("[2001:DB8::1]:8443")).toEqual({ host: "2001:db8::1", port: 8443 });
  });

  it.each([
    ["no port", "example.com"],
    ["an empty port", "example.com:"],
    ["port 0", "example.com:0"],
    ["a port over 65535", "example.com:65536"],
    ["a signed port", "example.com:+443"],
    ["an unbracketed IPv6 literal", "::1:443"],
    ["an IPv6 zone id", "[fe80::1%eth0]:443"],
    ["userinfo (host confusion)", "user@example.com:443"],
    ["a path", "example.com/x:443"],
    ["spaces", "exa mple.com:443"],
    ["a CR/LF (header injection)", "example.com\r\nX: y:443"],
    ["an empty host", ":443"],
    ["a label starting with a hyphen", "-bad.example.com:443"],
    ["a garbage bracketed host", "[not-an-ip]:443"],
  ])("refuses a target with %s", (_, authority) => {
    expect(parseHostPort(authority)).toBeUndefined();
  });

  it("a malformed allowlist entry matches nothing", () => {
    expect(matchesHostPattern("example.com:notaport", to("example.com:443"))).toBe(false);
    expect(matchesHostPattern("[::1", to("[::1]:443"))).toBe(false);
    expect(matchesHostPattern("", to("example.com:443"))).toBe(false);
  });
});
