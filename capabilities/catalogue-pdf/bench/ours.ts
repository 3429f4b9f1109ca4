// Our side of the benches: the production entrypoint (the start script, with the image's ENV) behind the
// orchestrator double, as Selu calls it (upload, invoke, download).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { imageEnv } from "@selu-catalogue/testkit/conformance";
import { Orchestrator, peakRssMiB, rssMiB, startCapabilityProcess } from "@selu-catalogue/testkit";
import { cpuMs } from "./cpu.ts";

export const dir = fileURLToPath(new URL("..", import.meta.url));
const loaded = loadManifest(`${dir}/manifest.yaml`).manifest;
if (!loaded) throw new Error("manifest.yaml does not parse");
export const manifest = loaded;
export const env: Record<string, string> = { ...imageEnv(readFileSync(`${dir}/Dockerfile`, "utf8")), LOG_LEVEL: "warn" };

/** Starts our capability; resolves once its Healthcheck says ready. */
export async function startOurs() {
  const proc = await startCapabilityProcess(dir, { env });
  const orchestrator = new Orchestrator();
  await orchestrator.install(manifest, proc.address);
  return {
    orchestrator,
    pid: proc.child.pid!,
    call: (args: Record<string, unknown>) => orchestrator.call("catalogue-pdf__create_pdf_document", args),
    peakRss: () => peakRssMiB(proc.child.pid!),
    rss: () => rssMiB(proc.child.pid!),
    cpuMs: () => cpuMs(proc.child.pid!),
    async stop() {
      await orchestrator.close();
      await proc.stop();
    },
  };
}

/** A started side of a bench: calls create_pdf_document, reads its peak RSS, stops. */
export type Side = Awaited<ReturnType<typeof startOurs>>;
