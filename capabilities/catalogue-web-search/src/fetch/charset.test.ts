import { describe, expect, it } from "vitest";
import { decodeBody } from "./charset.js";

const latin1 = (text: string) => Buffer.from(text, "latin1");

describe("decodeBody", () => {
  it("uses the Content-Type charset over a <meta> declaration", () => {
    const html = latin1('<meta charset="utf-8"><p>Gr\xfc\xdfe</p>');
    expect(decodeBody(html, "text/html; charset=ISO-8859-1", true)).toEqual({ text: '<meta charset="utf-8"><p>Grüße</p>', charset: "windows-1252" });
  });

  it("reads <meta charset> and http-equiv declarations in the first 1024 bytes", () => {
    expect(decodeBody(latin1('<meta charset="windows-1252"><p>\x80 5</p>'), "text/html", true).text).toContain("€ 5");
    expect(
      decodeBody(Buffer.from([0x3c, 0x6d, 0x65, 0x74, 0x61, 0x20, ...Buffer.from('http-equiv="Content-Type" content="text/html; charset=koi8-r">'), 0xf0, 0xd2, 0xc9]), "text/html", true).text,
    ).toMatch(/При$/);
  });

  it("lets a byte-order mark win over every declaration", () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("hé", "utf16le")]);
    expect(decodeBody(body, "text/html; charset=windows-1252", true)).toEqual({ text: "hé", charset: "utf-16le" });
  });

  it("falls back to UTF-8 when valid, else windows-1252, without a declaration or with an unknown label", () => {
    expect(decodeBody(Buffer.from("naïve"), "text/plain", false)).toEqual({ text: "naïve", charset: "utf-8" });
    expect(decodeBody(latin1("na\xefve"), "text/plain; charset=x-made-up", false)).toEqual({ text: "naïve", charset: "windows-1252" });
  });

  it("ignores a <meta> charset in plain text", () => {
    expect(decodeBody(latin1('<meta charset="shift_jis"> caf\xe9'), "text/plain", false).charset).toBe("windows-1252");
  });
});
