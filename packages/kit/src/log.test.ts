import { describe, expect, it } from "vitest";
import { createJsonLogger } from "./log.js";

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
    const log = createJsonLogger({ write: (l) => lines.push(l), secrets: () => [secret] });
    log.error("tool failed", { error: `login rejected for password ${secret}` });
    expect(lines[0]).not.toContain("p@ss");
    expect(JSON.parse(lines[0]!).error).toBe("login rejected for password [redacted]");
  });
});
