import { fileURLToPath } from "node:url";
import { loadManifest } from "@selu-catalogue/manifest";
import { Orchestrator, startCapabilityProcess, type CapabilityProcess, type CallOutcome } from "@selu-catalogue/testkit";

export const capabilityDir = fileURLToPath(new URL("../..", import.meta.url));

/** The production entrypoint (the start script) behind the orchestrator double, as Selu would run it. */
export interface PdfHarness {
  proc: CapabilityProcess;
  orchestrator: Orchestrator;
  /** Calls `catalogue-pdf__<tool>` as the model would. */
  call(tool: string, args: Record<string, unknown>): Promise<CallOutcome>;
  /** Calls and expects success; returns the rewritten result. */
  ok(tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Calls and expects failure; returns the capability's own error, else the error the model sees (Selu's words). */
  fails(tool: string, args: Record<string, unknown>): Promise<string>;
  /** Puts a file into the orchestrator's artifact memory, as an earlier tool result would; returns its artifact_id. */
  file(bytes: Buffer, filename: string, mimeType: string): string;
  /** The bytes of an artifact the model was given. */
  bytes(result: Record<string, unknown>): Buffer;
  stop(): Promise<void>;
}

/** `wrap` runs the entrypoint inside something (the container sandbox, a memory cgroup). */
export async function startPdf(env: Record<string, string> = {}, onLog?: (line: string) => void, wrap?: (command: string[]) => string[]): Promise<PdfHarness> {
  const proc = await startCapabilityProcess(capabilityDir, { env: { LOG_LEVEL: "warn", ...env }, ...(onLog ? { onLog } : {}), ...(wrap ? { wrap } : {}) });
  const orchestrator = new Orchestrator();
  const { manifest, problems } = loadManifest(`${capabilityDir}/manifest.yaml`);
  if (!manifest) throw new Error(`manifest: ${JSON.stringify(problems)}`);
  try {
    await orchestrator.install(manifest, proc.address);
  } catch (err) {
    await proc.stop();
    throw new Error(`${String(err)}\n${proc.output()}`);
  }
  const call = (tool: string, args: Record<string, unknown>) => orchestrator.call(`catalogue-pdf__${tool}`, args);
  return {
    proc,
    orchestrator,
    call,
    async ok(tool, args) {
      const outcome = await call(tool, args);
      if (!outcome.ok) throw new Error(`${tool} failed: ${outcome.error}`);
      return outcome.result;
    },
    async fails(tool, args) {
      const outcome = await call(tool, args);
      if (outcome.ok) throw new Error(`${tool} succeeded, expected an error: ${JSON.stringify(outcome.result)}`);
      return outcome.capabilityError ?? outcome.error;
    },
    file: (bytes, filename, mimeType) => orchestrator.vault.store("user-1", filename, mimeType, bytes).artifactId,
    bytes(result) {
      const artifact = result.artifact as { artifact_id: string };
      const item = orchestrator.vault.get(artifact.artifact_id);
      if (!item) throw new Error("no such artifact in the vault");
      return item.bytes;
    },
    async stop() {
      await orchestrator.close();
      await proc.stop();
    },
  };
}
