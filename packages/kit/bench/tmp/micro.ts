import { defineCapability, tool, Runtime, silentLogger } from "@selu-catalogue/kit";
import { invokeNow } from "../../dist/runtime/invoke.js";
import { z } from "zod";
const cap = defineCapability({ id: "b", tools: { echo: tool({ description: "d", input: z.object({ text: z.string() }), policy: "allow", run: ({ text }) => ({ text }) }) } });
const runtime = new Runtime(cap, { logger: silentLogger });
(runtime as any).debug = false;
const req = { toolName: "echo", argsJson: Buffer.from(JSON.stringify({ text: "hello from the bench" })), configJson: Buffer.from("{}"), sessionId: "s", threadId: "", capabilityId: "b" };
const opts = { get signal(): AbortSignal { throw new Error("no"); } };
function bare(r: typeof req) {
  const a = JSON.parse(r.argsJson.toString("utf8"));
  if (typeof a.text !== "string") throw new Error();
  return { ok: true, resultJson: Buffer.from(JSON.stringify({ text: a.text }), "utf8") };
}
const N = 300_000;
for (const [name, fn] of [["kit", () => invokeNow(runtime, req, opts)], ["bare", () => bare(req)], ["zod", () => cap.tools.get("echo")!.input.safeParse({ text: "hello" })]] as const) {
  for (let i = 0; i < N; i++) fn();
  const t = process.cpuUsage(); for (let i = 0; i < N; i++) fn(); const u = process.cpuUsage(t);
  console.log(name, ((u.user + u.system) / N).toFixed(2), "µs/call");
}
