import { describe, expect, it } from "vitest";
import { blockedAddressKind } from "./blocked-address.js";

describe("IPv4 internal ranges", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "link-local"], // cloud metadata endpoint
    ["100.64.0.1", "shared"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "reserved"],
    ["240.0.0.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
  ])("refuses %s as %s", (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it("allows the public neighbours of private ranges (no over-blocking at the edges)", () => {
    for (const address of ["172.15.255.255", "172.32.0.0", "11.0.0.1", "100.63.255.255", "100.128.0.0", "169.253.255.255", "126.255.255.255", "128.0.0.0", "223.255.255.255"]) {
      expect([address, blockedAddressKind(address)]).toEqual([address, undefined]);
    }
  });

  it("allows public addresses", () => {
    expect(blockedAddressKind("8.8.8.8")).toBeUndefined();
    expect(blockedAddressKind("1.1.1.1")).toBeUndefined();
  });
});

describe("IPv6 internal ranges", () => {
  it.each([
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::", "unspecified"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "reserved"],
    ["100::1", "reserved"],
    ["::7f00:1", "reserved"], // IPv4-compatible, deprecated
  ])("refuses %s as %s", (address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it("allows public IPv6 addresses", () => {
    expect(blockedAddressKind("2606:4700:4700::1111")).toBeUndefined();
    expect(blockedAddressKind("2a00:1450:4001::200e")).toBeUndefined();
  });
});

describe("IPv6 forms that smuggle an IPv4 address", () => {
  it.each([
    ["IPv4-mapped dotted", "::ffff:127.0.0.1", "loopback"],
    ["IPv4-mapped hex (as URLs normalise it)", "::ffff:7f00:1", "loopback"],
    ["IPv4-mapped, uppercase, expanded", "0:0:0:0:0:FFFF:A9FE:A9FE", "link-local"],
    ["IPv4-mapped private", "::ffff:10.0.0.1", "private"],
    ["IPv4-translated", "::ffff:0:127.0.0.1", "loopback"],
    ["NAT64 well-known prefix", "64:ff9b::7f00:1", "loopback"],
    ["NAT64 local-use prefix", "64:ff9b:1::a00:1", "private"],
    ["6to4 of a loopback address", "2002:7f00:1::1", "loopback"],
    ["6to4 of the metadata address", "2002:a9fe:a9fe::", "link-local"],
  ])("judges %s (%s) by the embedded address", (_, address, kind) => {
    expect(blockedAddressKind(address)).toBe(kind);
  });

  it("allows an IPv4-mapped public address", () => {
    expect(blockedAddressKind("::ffff:8.8.8.8")).toBeUndefined();
  });
});

describe("fails closed", () => {
  it.each(["localhost", "2130706433", "0x7f000001", "", "127.1", "::ffff:999.0.0.1"])("treats %j, which is not an IP literal, as unusable", (value) => {
    expect(blockedAddressKind(value)).toBe("not an IP address");
  });
});
