import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { installNoCanvas } from "./no-canvas.js";

describe("installNoCanvas", () => {
  it("gives pdf.js a canvas stand-in whose classes refuse, and leaves other modules alone", () => {
    installNoCanvas();
    installNoCanvas();
    const require = createRequire(import.meta.url);
    const canvas = require("@napi-rs/canvas") as { DOMMatrix: new () => unknown };
    expect(() => new canvas.DOMMatrix()).toThrow("rendering pages is not supported");
    expect(require("node:path")).toBeTypeOf("object");
  });
});
