import { describe, expect, it } from "vitest";
import { parseMcpArgs } from "./args.ts";

describe("parseMcpArgs", () => {
  it("serves gRPC as always when the command line names no --mcp", () => {
    expect(parseMcpArgs([])).toBeUndefined();
    expect(parseMcpArgs(["--inspect"])).toBeUndefined();
  });

  it("reads stdio and http with their options", () => {
    expect(parseMcpArgs(["--mcp", "stdio"])).toEqual({ transport: "stdio" });
    expect(parseMcpArgs(["--mcp=stdio", "--config", "c.json"])).toEqual({ transport: "stdio", config: "c.json" });
    expect(parseMcpArgs(["--mcp", "http"])).toEqual({ transport: "http", port: 3000, host: "127.0.0.1" });
    expect(parseMcpArgs(["--mcp", "http", "--port", "0", "--host", "0.0.0.0"])).toEqual({ transport: "http", port: 0, host: "0.0.0.0" });
  });

  it("refuses a bad transport, port or option naming it", () => {
    expect(() => parseMcpArgs(["--mcp", "sse"])).toThrow('--mcp must be stdio or http, got "sse"');
    expect(() => parseMcpArgs(["--mcp", "http", "--port", "99999"])).toThrow('--port must be a port number, got "99999"');
    expect(() => parseMcpArgs(["--mcp", "stdio", "--port", "1"])).toThrow("--port and --host apply to --mcp http only");
    expect(() => parseMcpArgs(["--mcp", "stdio", "--verbose"])).toThrow(/--verbose/);
  });
});
