import { describe, expect, it } from "vitest";
import { checkPageUrl } from "./url-policy.js";

describe("checkPageUrl", () => {
  it("fetches http:// as https://, dropping an explicit port 80 and the fragment", () => {
    const { url, upgraded } = checkPageUrl("http://example.org:80/a?b=1#c", "url", false);
    expect([url.href, upgraded]).toEqual(["https://example.org/a?b=1", true]);
    expect(checkPageUrl("http://example.org:8080/", "url", false).url.href).toBe("https://example.org:8080/");
  });

  it("names the field it checks", () => {
    expect(() => checkPageUrl("ftp://example.org/", "url (redirected by a.example)", false)).toThrow(/^url \(redirected by a\.example\): only http and https/);
  });

  it("allows public names and addresses", () => {
    for (const u of ["https://example.org/", "https://93.184.216.34/", "https://[2606:4700:4700::1111]/", "https://xn--mnchen-3ya.de/"]) {
      expect(checkPageUrl(u, "url", false).url.protocol).toBe("https:");
    }
  });

  it("lets the operator's setting through internal hosts, but never other schemes", () => {
    expect(checkPageUrl("https://10.0.0.5/wiki", "url", true).url.hostname).toBe("10.0.0.5");
    expect(checkPageUrl("https://wiki/", "url", true).url.hostname).toBe("wiki");
    expect(() => checkPageUrl("file:///etc/passwd", "url", true)).toThrow(/not file: URLs/);
  });

  it("does not take a public name for a private suffix by its ending alone", () => {
    expect(checkPageUrl("https://mylocal.example.org/", "url", false).url.hostname).toBe("mylocal.example.org");
    expect(checkPageUrl("https://internal.example.org/", "url", false).url.hostname).toBe("internal.example.org");
  });
});
