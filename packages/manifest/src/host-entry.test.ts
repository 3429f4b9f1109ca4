import { describe, expect, it } from "vitest";
import { checkHostEntry } from "./host-entry.js";

describe("checkHostEntry", () => {
  it.each(["api.example.com:443", "api.example.com", "*.example.com", "*.example.com:443", "API.Example.com", "10.0.0.1:8443", "_srv.example.com"])(
    "accepts %j, a form the egress proxy matches",
    (entry) => expect(checkHostEntry(entry)).toBeUndefined(),
  );

  it.each([
    ["", "is empty: expected host, host:port, *.suffix or *.suffix:port (e.g. api.example.com:443)"],
    ["api.example.com :443", '"api.example.com :443" contains spaces: expected host, host:port, *.suffix or *.suffix:port (e.g. api.example.com:443)'],
    ["*", '"*" is not an allowlist entry: use network mode any to allow every host'],
    ["https://api.example.com", '"https://api.example.com" has a URL scheme: write only the host and port, e.g. api.example.com:443'],
    ["api.example.com/v1", '"api.example.com/v1" has a path: the proxy sees hosts and ports only, expected host, host:port, *.suffix or *.suffix:port (e.g. api.example.com:443)'],
    ["user@api.example.com", '"user@api.example.com" has user info: expected host, host:port, *.suffix or *.suffix:port (e.g. api.example.com:443)'],
    ["api.example.com:https", '"api.example.com:https": port "https" is not a number'],
    ["api.example.com:0", '"api.example.com:0": port 0 is outside 1-65535'],
    ["api.example.com:70000", '"api.example.com:70000": port 70000 is outside 1-65535'],
    ["api.example.com.", '"api.example.com.": the trailing dot never matches: write api.example.com'],
    ["api.*.example.com", '"api.*.example.com": a wildcard is only allowed as a leading *. (e.g. *.example.com)'],
    ["*example.com", '"*example.com": a wildcard is only allowed as a leading *. (e.g. *.example.com)'],
    ["*.com", '"*.com": *.com would allow every host under a top-level domain: name the domain (e.g. *.example.com)'],
    ["api.example..com", '"api.example..com": has an empty label (a leading dot or two dots in a row)'],
    [".example.com", '".example.com": has an empty label (a leading dot or two dots in a row)'],
    ["-api.example.com", '"-api.example.com": "-api" is not a valid host name label (letters, digits, hyphens; at most 63)'],
    ["2001:db8::1", "\"2001:db8::1\" looks like an IPv6 address, which Selu's proxy never matches (it compares entries as text): allow the host's name instead"],
    [
      "[2001:db8::1]:443",
      "\"[2001:db8::1]:443\" is an IPv6 literal, which Selu's proxy never matches (it compares the host without brackets against the entry as text): allow the host's name instead",
    ],
    ["[::1]", "\"[::1]\" is an IPv6 literal, which Selu's proxy never matches (it compares the host without brackets against the entry as text): allow the host's name instead"],
    ["api.example.com:0443", '"api.example.com:0443": port "0443" has a leading zero and never matches (Selu compares host:port as text): write 443'],
    ["*.example.com:08443", '"*.example.com:08443": port "08443" has a leading zero and never matches (Selu compares host:port as text): write 8443'],
    ["[fe80::1%eth0]:443", '"[fe80::1%eth0]:443" is not a valid [IPv6]:port'],
    ["[2001:db8::1]x", '"[2001:db8::1]x" is not a valid [IPv6]:port'],
  ])("refuses %j, which would match nothing or too much", (entry, expected) => {
    expect(checkHostEntry(entry)).toBe(expected);
  });
});
