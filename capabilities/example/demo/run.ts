// The main job until the catalogue demo replaces it: starts the example capability with its production
// entrypoint, installs it in the orchestrator double (which waits for readiness as Selu does), makes the
// calls an agent would, and prints each step as the orchestrator sees it.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Orchestrator, startCapabilityProcess, type TranscriptEntry } from "@selu-catalogue/testkit";
import capability from "../dist/capability.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const outDir = fileURLToPath(new URL("../../../out/demo/", import.meta.url));

const proc = await startCapabilityProcess(dir, { env: { LOG_LEVEL: "warn" } });
const orchestrator = new Orchestrator();
let printed = 0;
const show = () => {
  for (const entry of orchestrator.transcript.slice(printed)) console.log(format(entry));
  printed = orchestrator.transcript.length;
};

try {
  const started = Date.now();
  const description = capability.describe();
  await orchestrator.install(description, proc.address);
  console.log(`== example is ready after ${Date.now() - started} ms (${proc.address}, production entrypoint)`);

  await orchestrator.call("example__echo", { text: "Hello from the example capability" });
  show();
  const made = await orchestrator.call("example__make_text_file", {
    filename: "note.txt",
    text: "Artifacts travel between tools without base64.\n",
    _approval_message: "Selu strips this before dispatch",
  });
  show();
  if (!made.ok) throw new Error(made.error);
  const artifact = made.result.artifact as { artifact_id: string };
  await orchestrator.call("example__describe_files", { attachments: [{ artifact_id: artifact.artifact_id }] });
  show();

  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}note.txt`, orchestrator.vault.get(artifact.artifact_id)!.bytes);
  writeFileSync(`${outDir}transcript.json`, JSON.stringify(orchestrator.transcript, null, 2));
  console.log(`\n== the artifact and the transcript are in ${outDir}`);
} finally {
  await orchestrator.close();
  console.log(`== SIGTERM: the capability drained and exited with code ${await proc.stop()}`);
}

function format(entry: TranscriptEntry): string {
  const json = (value: unknown) => JSON.stringify(value, null, 2).replaceAll("\n", "\n   ");
  switch (entry.kind) {
    case "call":
      return `\n-> the model calls ${entry.tool}\n   ${json(entry.args)}`;
    case "invoke":
      return `   orchestrator: Invoke ${entry.toolName} with args_json\n   ${json(entry.args)}`;
    case "upload":
      return `   orchestrator: uploaded artifact ${entry.artifactId} (${entry.filename}, ${entry.sizeBytes} bytes, ${entry.chunks} chunk) -> ${entry.capabilityArtifactId}`;
    case "raw-result":
      return `   capability: result_json\n   ${json(entry.result)}`;
    case "download":
      return `   orchestrator: downloaded ${entry.capabilityArtifactId} (${entry.sizeBytes} bytes) and stored it as ${entry.artifactId}`;
    case "result":
      return `<- the model sees\n   ${json(entry.result)}`;
    case "error":
      return `<- error (${entry.stage}): ${entry.error}`;
    case "finding":
      return `!! ${entry.finding}`;
  }
}
