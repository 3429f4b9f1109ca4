import { describe, expect, it } from "vitest";
import type { Run } from "../../document/inline.js";
import { type Piece, pieces } from "./pieces.js";

const run = (text: string, bold = false): Run => ({ text, bold, italic: false, code: false });
const texts = (p: readonly Piece[]) => p.map((piece) => piece.runs.map((r) => r.text).join(""));

describe("pieces", () => {
  it("leaves short text whole", () => {
    expect(pieces([run("a b"), run("c", true)], 10)).toEqual([{ runs: [run("a b"), run("c", true)], continues: false }]);
  });

  it("cuts at the last line break within reach, dropping it, and keeps each run's style", () => {
    const p = pieces([run("one two\nthree "), run("four\nfive", true)], 12);
    expect(texts(p)).toEqual(["one two", "three four", "five"]);
    expect(p[1]).toEqual({ runs: [run("three "), run("four", true)], continues: false });
  });

  it("cuts a stretch without line breaks after its last space, kept, the next piece going on with the line; a word longer than a piece anywhere", () => {
    const p = pieces([run("aaaa bbbb cccc dddd")], 10);
    expect(texts(p)).toEqual(["aaaa bbbb ", "cccc dddd"]);
    expect(p.map((piece) => piece.continues)).toEqual([true, false]);
    expect(texts(pieces([run("x".repeat(25))], 10))).toEqual(["x".repeat(10), "x".repeat(10), "x".repeat(5)]);
  });

  it("loses no character but the line breaks it cuts at", () => {
    const source = Array.from({ length: 500 }, (_, i) => `word${i}${i % 7 === 0 ? "\n" : " "}`).join("");
    const p = pieces([run(source.slice(0, 1000)), run(source.slice(1000), true)], 300);
    expect(p.length).toBeGreaterThan(5);
    expect(texts(p).join(" ").replace(/\s+/g, " ").trim()).toBe(source.replace(/\s+/g, " ").trim());
  });
});
