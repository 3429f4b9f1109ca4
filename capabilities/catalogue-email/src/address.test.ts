import { describe, expect, it } from "vitest";
import { formatAddress, parseAddress } from "./address.js";

describe("parseAddress", () => {
  it("reads bare and named addresses", () => {
    expect(parseAddress("bob@example.com")).toEqual({ address: "bob@example.com", name: undefined });
    expect(parseAddress("Bob Builder <bob@example.com>")).toEqual({ address: "bob@example.com", name: "Bob Builder" });
    expect(parseAddress('"Builder, Bob" <bob@example.com>')).toEqual({ address: "bob@example.com", name: "Builder, Bob" });
    expect(parseAddress("info@müller.de")).toEqual({ address: "info@müller.de", name: undefined });
  });

  describe("header injection", () => {
    it.each(["bob@example.com\r\nBcc: victim@example.com", "bob@example.com\nX: y", "Bob\r\n <bob@example.com>", "bob@example.com\0"])("refuses line breaks and NUL: %j", (input) =>
      expect(parseAddress(input)).toBeUndefined(),
    );
  });

  describe("address smuggling", () => {
    it.each([
      "bob@example.com, eve@example.com", // a second recipient in one entry
      "Bob <bob@example.com>, <eve@example.com>",
      "Eve <eve@example.com> <bob@example.com>",
      'Bob "<eve@example.com>" <bob@example.com>',
      "bob@example.com <eve@example.com",
      "(comment)bob@example.com",
    ])("refuses more than one address or comments: %j", (input) => expect(parseAddress(input)).toBeUndefined());
  });

  it.each(["bob@", "@example.com", "bob", "bob@localhost", "bob@example..com", "bob..x@example.com", "bob@-example.com", `${"a".repeat(65)}@example.com`, "bob@[127.0.0.1]"])(
    "refuses what is not an address: %j",
    (input) => expect(parseAddress(input)).toBeUndefined(),
  );

  it("formats with and without a name", () => {
    expect(formatAddress({ name: "Bob", address: "bob@example.com" })).toBe("Bob <bob@example.com>");
    expect(formatAddress({ address: "bob@example.com" })).toBe("bob@example.com");
  });
});
