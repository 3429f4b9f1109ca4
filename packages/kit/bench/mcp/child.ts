// Bench child for the MCP bench: one trivial capability served by the kit as a capability's main.ts
// would, over gRPC (BENCH_PORT) or, with `--mcp stdio` on the command line, over MCP stdio. The same
// code and bundle on both sides: only the transport differs.
import { defineCapability, serve, tool } from "@selu-catalogue/kit";
import { z } from "zod";

const capability = defineCapability({
  id: "bench",
  tools: {
    echo: tool({ description: "Echoes the text back", input: z.object({ text: z.string() }), policy: "allow", run: ({ text }) => ({ text }) }),
  },
});

await serve(capability, { port: Number(process.env.BENCH_PORT ?? 0), host: "127.0.0.1", handleSignals: false, logLevel: "warn", argv: process.argv.slice(2) });
