import { describe, expect, it } from "vitest";
import { ImapLineBudget, TOO_MANY_RESPONSE_LINES } from "./line-budget.js";

function budget(maxBytes: number) {
  const errors: Error[] = [];
  const b = new ImapLineBudget(maxBytes, (err) => errors.push(err));
  return { b, errors };
}

describe("ImapLineBudget", () => {
  it("counts response lines but not the literals they announce", () => {
    const { b, errors } = budget(1_000);
    const literal = "x".repeat(5_000);
    b.observe(Buffer.from(`* 1 FETCH (UID 1 BODY[] {${literal.length}}\r\n${literal})\r\n* 2 FETCH (UID 2 BODY[] {3+}\r\nabc)\r\nA1 OK done\r\n`));
    expect(errors).toEqual([]);
    expect(b.used).toBe("* 1 FETCH (UID 1 BODY[] {5000}\r\n)\r\n* 2 FETCH (UID 2 BODY[] {3+}\r\n)\r\nA1 OK done\r\n".length);
  });

  it("follows lines and literals split across chunks at any byte", () => {
    const text = `* 1 FETCH (BODY[] {10}\r\n0123456789 FLAGS (\\Seen))\r\nA1 OK done\r\n`;
    const lines = text.length - 10;
    for (let cut = 1; cut < text.length; cut++) {
      const { b } = budget(1_000);
      b.observe(Buffer.from(text.slice(0, cut)));
      b.observe(Buffer.from(text.slice(cut)));
      expect(b.used, `cut at ${cut}`).toBe(lines);
    }
  });

  it("reports once, with its code, when a flood of lines passes the budget", () => {
    const { b, errors } = budget(64 * 1024);
    const line = Buffer.from(`* 1 FETCH (UID 1 FLAGS (${"\\X ".repeat(1_000)}))\r\n`);
    for (let i = 0; i < 100; i++) b.observe(line);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: TOO_MANY_RESPONSE_LINES, message: expect.stringMatching(/response lines in one session/) });
  });
});
