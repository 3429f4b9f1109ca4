// Bench child: the trivial capability served by the kit, exactly as a capability's main.ts would.
import { defineCapability, serve, tool } from "@selu-catalogue/kit";
import { z } from "zod";
import { announce, benchPort, startReporting } from "./child.ts";

startReporting();

const capability = defineCapability({
  id: "bench",
  // The bare server runs all 64 calls of the c=64 phase at once; so does this one, so the bench compares
  // per-call overhead, not the default admission (4 running, 16 waiting) a real capability declares.
  limits: { calls: { max: 64, maxWaiting: 64 } },
  tools: {
    echo: tool({
      description: "Echoes the text back",
      input: z.object({ text: z.string() }),
      policy: "allow",
      run: ({ text }) => ({ text }),
    }),
    make_file: tool({
      description: "Makes a file of the given size filled with a byte pattern",
      input: z.object({ size: z.number().int().min(1) }),
      policy: "allow",
      async run({ size }, ctx) {
        const artifact = await ctx.artifacts.put(pattern(size), { filename: "data.bin", mimeType: "application/octet-stream" });
        return { artifact };
      },
    }),
  },
});

function pattern(size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
  return bytes;
}

const server = await serve(capability, { port: benchPort(), host: "127.0.0.1", handleSignals: false, logLevel: "warn" });
announce(server.port);
