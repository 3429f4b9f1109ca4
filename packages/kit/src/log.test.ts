import { describe, expect, it } from "vitest";
import { createJsonLogger } from "./log.js";
import { SecretMask } from "./secrets/secret-mask.js";

const maskOf = (...values: string[]) => {
  const mask = new SecretMask();
  mask.remember(values);
  return mask;
};

describe("createJsonLogger", () => {
  it("writes one JSON object per line with level, message and fields", () => {
    const lines: string[] = [];
    createJsonLogger({ write: (l) => lines.push(l) }, { capability: "x" }).info("ready", { port: 1 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: "info", msg: "ready", capability: "x", port: 1 });
  });

  it("drops records below its level", () => {
    const lines: string[] = [];
    const log = createJsonLogger({ level: "warn", write: (l) => lines.push(l) });
    log.debug("a");
    log.info("b");
    log.warn("c");
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual(["c"]);
  });

  it("masks known secret values anywhere in a record, even JSON-escaped", () => {
    const lines: string[] = [];
    const secret = 'p@ss"word\\1';
    const log = createJsonLogger({ write: (l) => lines.push(l), mask: maskOf(secret) });
    log.error("tool failed", { error: `login rejected for password ${secret}` });
    expect(lines[0]).not.toContain("p@ss");
    expect(JSON.parse(lines[0]!).error).toBe("login rejected for password [redacted]");
  });

  it("masks a secret lowercased, uppercased, URL-encoded, hex, base64 and inside a Basic header", () => {
    const lines: string[] = [];
    const secret = "Tr0ub4dor&3/Horse+Battery";
    const log = createJsonLogger({ write: (l) => lines.push(l), mask: maskOf(secret) });
    const forms = [
      secret.toLowerCase(),
      secret.toUpperCase(),
      encodeURIComponent(secret),
      Buffer.from(secret).toString("hex"),
      Buffer.from(secret).toString("base64"),
      Buffer.from(secret).toString("base64url"),
      `Basic ${Buffer.from(`alice@example.com:${secret}`).toString("base64")}`,
      `Basic ${Buffer.from(`bob:${secret}`).toString("base64")}`,
      JSON.stringify({ password: secret }),
    ];
    for (const form of forms) log.error("tool failed", { error: `upstream said: ${form}` });
    for (const [i, line] of lines.entries()) {
      expect(line, forms[i]).toContain("[redacted]");
      const error = JSON.parse(line).error as string;
      // What is left of an encoded form can't give more than the bits at its two edges.
      for (const piece of error.split("[redacted]")) expect(piece.length, forms[i]).toBeLessThan(`upstream said: Basic YWxpY2VAZXhhbXBsZS5jb2`.length + 4);
      expect(error.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(error).not.toContain(Buffer.from(secret).toString("base64").slice(4, 20));
    }
  });

  it("leaves ordinary text alone", () => {
    const lines: string[] = [];
    createJsonLogger({ write: (l) => lines.push(l), mask: maskOf("Tr0ub4dor&3/Horse+Battery", "abc") }).info("ready", { note: "horse battery staple abc" });
    expect(JSON.parse(lines[0]!).note).toBe("horse battery staple abc");
  });
});
