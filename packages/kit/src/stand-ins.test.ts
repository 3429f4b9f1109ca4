import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { installStandIns } from "./stand-ins.js";

describe("installStandIns", () => {
  it("gives pdf.js a canvas stand-in whose classes refuse, and leaves other modules alone", () => {
    installStandIns();
    installStandIns();
    const require = createRequire(import.meta.url);
    const canvas = require("@napi-rs/canvas") as { DOMMatrix: new () => unknown; Path2D: new () => unknown };
    expect(() => new canvas.DOMMatrix()).toThrow("rendering pages is not supported");
    expect(() => new canvas.Path2D()).toThrow("rendering pages is not supported");
    expect(require("node:path")).toBeTypeOf("object");
    expect(() => require("@napi-rs/canvas-not-a-stand-in")).toThrow(/Cannot find module/);
  });
});
