import { describe, expect, it } from "vitest";
import type { Run } from "../../document/inline.js";
import { pieces } from "./pieces.js";

const run = (text: string, bold = false): Run => ({ text, bold, italic: false, code: false });
const texts = (p: readonly (readonly Run[])[]) => p.map((piece) => piece.map((r) => r.text).join(""));

describe("pieces", () => {
  it("leaves short text whole", () => {
    expect(pieces([run("a b"), run("c", true)], 10)).toEqual([[run("a b"), run("c", true)]]);
  });

  it("cuts at the last line break within reach, dropping it, and keeps each run's style", () => {
    const p = pieces([run("one two\nthree "), run("four\nfive", true)], 12);
    expect(texts(p)).toEqual(["one two", "three four", "five"]);
    expect(p[1]).toEqual([run("three "), run("four", true)]);
  });

  it("cuts a stretch without line breaks at its last space, and a word longer than a piece anywhere", () => {
    expect(texts(pieces([run("aaaa bbbb cccc dddd")], 10))).toEqual(["aaaa bbbb", "cccc dddd"]);
    expect(texts(pieces([run("x".repeat(25))], 10))).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });

  it("loses no character but the line breaks and spaces it cuts at", () => {
    const source = Array.from({ length: 500 }, (_, i) => `word${i}${i % 7 === 0 ? "\n" : " "}`).join("");
    const p = pieces([run(source.slice(0, 1000)), run(source.slice(1000), true)], 300);
    expect(p.length).toBeGreaterThan(5);
    expect(texts(p).join(" ").replace(/\s+/g, " ").trim()).toBe(source.replace(/\s+/g, " ").trim());
  });
});
