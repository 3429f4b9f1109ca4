import { describe, expect, it } from "vitest";
import { encodeGrpcMessage } from "./status.js";

describe("encodeGrpcMessage", () => {
  it("leaves printable ASCII as it is", () => {
    expect(encodeGrpcMessage('unknown service "a.B" (see ~docs)')).toBe('unknown service "a.B" (see ~docs)');
  });

  it("percent-encodes UTF-8 bytes, control characters and '%'", () => {
    expect(encodeGrpcMessage("ж 100%\n")).toBe("%D0%B6 100%25%0A");
    expect(decodeURIComponent(encodeGrpcMessage("ж 100%\n"))).toBe("ж 100%\n");
  });
});
