// Issue 10 items 1 and 7: one oversized or deeply structured argument, or a burst of calls far past the
// declared concurrency, must not kill a capability. Each runs its production entrypoint (the start
// script, with the image's heap flags) and its peak memory is held to the manifest's max_memory_mb.
import { fileURLToPath } from "node:url";
import { status, type ServiceError } from "@grpc/grpc-js";
import { loadManifest } from "@selu-catalogue/manifest";
import { connectCapability, invokeCapability, peakRssMiB, startCapabilityProcess, type CapabilityProcess } from "@selu-catalogue/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const MiB = 1024 * 1024;
// Just under Selu's 16 MiB message bound, leaving room for the request's other fields.
const NEAR_MESSAGE_LIMIT = 16 * MiB - 4096;

const fill = (bytes: number, prefix: string, unit: string, suffix: string) =>
  Buffer.from(
    prefix +
      Array(Math.floor((bytes - prefix.length - suffix.length) / (unit.length + 1)))
        .fill(unit)
        .join(",") +
      suffix,
  );

interface Target {
  dir: string;
  /** A cheap tool and arguments that answer without a counterpart (an error is fine). */
  probe: { tool: string; args: unknown };
  /** Tools the attacks are sent to, each with the argument that carries them (an array field if it has one). */
  tools: [tool: string, field: string][];
  /** A call that does real work, sent `count` times at once. */
  burst: { tool: string; args: unknown; count: number };
}

const paragraph = "Coral reefs cover less than one percent of the ocean floor yet shelter a quarter of marine species. ".repeat(20);

const targets: Target[] = [
  {
    dir: "catalogue-example",
    probe: { tool: "echo", args: { text: "still here" } },
    tools: [
      ["echo", "text"],
      ["make_text_file", "text"],
    ],
    burst: { tool: "make_text_file", args: { filename: "big.txt", text: "x".repeat(1_000_000) }, count: 500 },
  },
  {
    dir: "catalogue-pdf",
    probe: { tool: "extract_pdf_text", args: { attachments: [] } },
    tools: [
      ["create_pdf_document", "sections"],
      ["extract_pdf_text", "attachments"],
    ],
    burst: { tool: "create_pdf_document", args: { title: "Reefs", sections: Array.from({ length: 10 }, (_, i) => ({ heading: `Part ${i}`, content: Array(10).fill(paragraph) })) }, count: 200 },
  },
  {
    dir: "catalogue-email",
    probe: { tool: "get_message", args: { uid: "x" } },
    tools: [
      ["send_email", "to"],
      ["search_messages", "text"],
    ],
    burst: { tool: "send_email", args: { to: ["bob@example.com"], subject: "Hi", text: "y".repeat(500_000) }, count: 500 },
  },
];

for (const target of targets) {
  describe(`${target.dir}: hostile arguments`, () => {
    const dir = fileURLToPath(new URL(`../capabilities/${target.dir}`, import.meta.url));
    const { manifest } = loadManifest(`${dir}/manifest.yaml`);
    let proc: CapabilityProcess;
    let capability: {
      tools: Map<string, { args?: { maxBytes?: number; maxValues?: number } }>;
      limits: { args: { maxBytes: number; maxValues: number }; calls: { max: number } };
    };
    const maxArgsBytes = (tool: string) => capability.tools.get(tool)?.args?.maxBytes ?? capability.limits.args.maxBytes;
    const maxArgsValues = (tool: string) => capability.tools.get(tool)?.args?.maxValues ?? capability.limits.args.maxValues;
    let client: ReturnType<typeof connectCapability>;
    // A request past the capability's largest bound is refused by the transport from its length prefix.
    const call = (tool: string, argsJson: Buffer) =>
      invokeCapability(client, { toolName: tool, argsJson, configJson: Buffer.from("{}"), sessionId: "s", threadId: "", capabilityId: manifest!.id }).catch((err: ServiceError) => {
        if (err.code !== status.RESOURCE_EXHAUSTED) throw err;
        return { resultJson: Buffer.alloc(0), error: `RESOURCE_EXHAUSTED: ${err.details}` };
      });
    const alive = async () => {
      const res = await call(target.probe.tool, Buffer.from(JSON.stringify(target.probe.args)));
      expect(res.resultJson.byteLength > 0 || res.error.length > 0).toBe(true);
    };

    beforeAll(async () => {
      capability = (await import(`${dir}/dist/capability.js`)).default;
      proc = await startCapabilityProcess(dir, { env: { LOG_LEVEL: "warn" } });
      client = connectCapability(proc.address);
      for (
        let i = 0;
        i < 150 &&
        !(await call(target.probe.tool, Buffer.from("{}")).then(
          () => true,
          () => false,
        ));
        i++
      ) {
        await new Promise((r) => setTimeout(r, 200));
      }
    }, 60_000);
    afterAll(async () => {
      client?.close();
      await proc?.stop();
    });

    for (const [tool, field] of target.tools) {
      it(`${tool}: refuses many small objects up to the message limit with the bound in words`, async () => {
        for (const bytes of [2 * MiB, 6 * MiB, NEAR_MESSAGE_LIMIT]) {
          const res = await call(tool, fill(bytes, `{"${field}":[`, "{}", "]}"));
          expect(res.error).toMatch(/^(args_json (holds more than [\d,]+ values|is [\d.]+ MiB, over the [\d.]+ MiB)|RESOURCE_EXHAUSTED: Received message larger than max)/);
        }
        await alive();
      }, 60_000);

      it(`${tool}: answers arguments at its own bounds with a validation error`, async () => {
        // The root, the field's array and its elements: as many values as the tool accepts.
        const elements = maxArgsValues(tool) - 2;
        const objects = await call(tool, Buffer.from(`{"${field}":[${Array(elements).fill("{}").join(",")}]}`));
        expect(objects.error).toMatch(new RegExp(`^invalid arguments for ${tool}: `));
        const strings = await call(tool, Buffer.from(`{"${field}":[${Array(elements).fill('"x"').join(",")}]}`));
        expect(strings.error).toMatch(new RegExp(`^invalid arguments for ${tool}: `));
        await alive();
      }, 60_000);

      it(`${tool}: refuses deep nesting and a string as large as the message limit`, async () => {
        const depth = 4 * MiB;
        const deep = await call(tool, Buffer.from(`{"${field}":${"[".repeat(depth)}${"]".repeat(depth)}}`));
        expect(deep.error).toMatch(/^(args_json (nests objects and arrays deeper than \d+ levels|is 8\.0 MiB, over)|RESOURCE_EXHAUSTED)/);
        const long = await call(tool, Buffer.from(`{"${field}":"${"é".repeat((NEAR_MESSAGE_LIMIT - 32) / 2)}"}`));
        expect(long.error).toMatch(/^RESOURCE_EXHAUSTED: Received message larger than max/);
        const justOver = await call(tool, Buffer.from(`{"${field}":"${"x".repeat(maxArgsBytes(tool))}"}`));
        expect(justOver.error).toMatch(/^args_json is [\d.]+ MiB, over the [\d.]+ MiB .* accepts; pass large content as a file/);
        await alive();
      }, 60_000);
    }

    it(`answers a burst of ${target.burst.count} calls far past its declared concurrency, each run or refused in words`, async () => {
      const argsJson = Buffer.from(JSON.stringify(target.burst.args));
      const answers = await Promise.all(Array.from({ length: target.burst.count }, () => call(target.burst.tool, argsJson)));
      // Every call is answered (a transport failure would reject): run, or refused in words when the queue is full.
      const refused = answers.filter((a) => /^the capability is busy: all \d+ call slots are taken/.test(a.error));
      expect(answers.length - refused.length).toBeGreaterThanOrEqual(capability.limits.calls.max);
      await alive();
    }, 120_000);

    it("declares the concurrency its manifest states", () => {
      if (manifest!.sharing.mode === "shared") expect(capability.limits.calls.max).toBe(manifest!.sharing.max_concurrent);
      else expect(capability.limits.calls.max).toBeGreaterThanOrEqual(1);
    });

    it("stays under the manifest's memory limit", async () => {
      await alive();
      const peak = peakRssMiB(proc.child.pid!);
      console.log(`${target.dir}: peak RSS after hostile arguments ${peak} MiB of ${manifest!.resources.max_memory_mb}`);
      expect(peak).toBeLessThan(manifest!.resources.max_memory_mb);
    });
  });
}
