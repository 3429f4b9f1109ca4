import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answered, rawCall, type Answer } from "../src/call.js";
import { discoverCapabilities } from "../src/capabilities.js";
import { generate, huge, mutate, Rng } from "../src/fuzz.js";
import { startWorld, type World } from "../src/world.js";

// Issue 10, checks to keep: a bounded fuzz run per tool with a fixed seed. Arguments are generated from
// each tool's own JSON Schema, then mutated (wrong types, nulls, odd strings and numbers, unknown keys,
// deep nests), and some are huge, up to the 16 MiB message limit. Every call must answer (a result, a
// tool error, or the over-limit refusal), the process must stay up, memory under the manifest's limit.
const SEED = Number(process.env.RELIABILITY_SEED ?? 20261123);
/** Per tool: at most this many calls, or this long, whichever comes first. */
const CALLS_PER_TOOL = 150;
const MS_PER_TOOL = 3_000;
/** Huge arguments per tool: flat (one long string) of these sizes. */
const HUGE_BYTES = [1024 * 1024, 6 * 1024 * 1024, 16 * 1024 * 1024 - 4096];
const MESSAGE_LIMIT = 16 * 1024 * 1024;

for (const cap of discoverCapabilities()) {
  describe(`fuzz: ${cap.id}`, () => {
    let world: World;
    beforeAll(async () => {
      world = await startWorld(cap);
    });
    afterAll(() => world?.close());

    it("answers every seeded, mutated call of every tool and stays up under its memory limit", async () => {
      const rng = new Rng(SEED);
      const failures: string[] = [];
      let calls = 0;
      const started = performance.now();
      for (const tool of world.tools) {
        const toolStarted = performance.now();
        for (let i = 0; i < CALLS_PER_TOOL && performance.now() - toolStarted < MS_PER_TOOL; i++) {
          const valid = generate(tool.inputSchema, rng);
          const args = rng.chance(0.8) ? mutate(valid, rng) : valid;
          const answer = await rawCall(world, tool.name, Buffer.from(JSON.stringify(args) ?? "null"));
          calls += 1;
          if (!answered(answer)) failures.push(`${tool.name} #${i}: ${explain(answer)} for ${JSON.stringify(args).slice(0, 300)}`);
          if (!world.alive()) break;
        }
        if (!world.alive()) break;
      }
      report(world, "mutated", calls, started, failures);
    }, 180_000);

    it("answers flat arguments up to the 16 MiB message limit for every tool", async () => {
      const rng = new Rng(SEED + 1);
      const failures: string[] = [];
      let calls = 0;
      const started = performance.now();
      for (const tool of world.tools) {
        for (const bytes of HUGE_BYTES) {
          const args = Buffer.from(JSON.stringify(huge(generate(tool.inputSchema, rng), bytes, false, rng)));
          const answer = await rawCall(world, tool.name, args);
          calls += 1;
          if (!answered(answer)) failures.push(`${tool.name} with ${args.length} bytes: ${explain(answer)}`);
          if (!world.alive()) break;
        }
      }
      report(world, "huge flat", calls, started, failures);
    }, 180_000);

    // issue 10 item 1/7: bounded by the kit (arguments, admission).
    it("answers structured arguments of many small objects up to the message limit for every tool", async () => {
      const rng = new Rng(SEED + 2);
      const failures: string[] = [];
      let calls = 0;
      const started = performance.now();
      for (const tool of world.tools) {
        for (const bytes of [2 * 1024 * 1024, 6 * 1024 * 1024, MESSAGE_LIMIT - 4096]) {
          const args = Buffer.from(JSON.stringify(huge(generate(tool.inputSchema, rng), bytes, true, rng)));
          const answer = await rawCall(world, tool.name, args);
          calls += 1;
          if (!answered(answer)) failures.push(`${tool.name} with ${args.length} bytes of small objects: ${explain(answer)}`);
          if (!world.alive()) break;
        }
      }
      report(world, "huge structured", calls, started, failures);
    }, 180_000);
  });
}

function explain(answer: Answer): string {
  return answer.kind === "status" ? `gRPC status ${answer.code} (${answer.message})` : answer.kind;
}

function report(world: World, what: string, calls: number, started: number, failures: string[]) {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  // The figures issue 10 asks for: calls, time and the memory peak, per capability.
  console.info(`fuzz ${world.cap.id} (${what}, seed ${SEED}): ${calls} calls in ${seconds} s, peak ${world.memory.peakMiB()} MiB of ${world.cap.memoryMiB} (${world.memory.kind})`);
  expect(failures).toEqual([]);
  expect(world.alive(), world.proc.output().slice(-2_000)).toBe(true);
  expect(world.memory.peakMiB()).toBeLessThan(world.cap.memoryMiB);
}
