// The main job until the catalogue demo replaces it: starts the example capability with its production
// entrypoint, installs it in the orchestrator double (which waits for readiness as Selu does), makes the
// calls an agent would, and prints each step as the orchestrator sees it.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { formatTranscriptEntry, Orchestrator, startCapabilityProcess } from "@selu-catalogue/testkit";
import capability from "../dist/capability.js";

const dir = fileURLToPath(new URL("..", import.meta.url));
const outDir = fileURLToPath(new URL("../../../out/demo/", import.meta.url));

const proc = await startCapabilityProcess(dir, { env: { LOG_LEVEL: "warn" } });
const orchestrator = new Orchestrator();
let printed = 0;
const show = () => {
  for (const entry of orchestrator.transcript.slice(printed)) console.log(formatTranscriptEntry(entry));
  printed = orchestrator.transcript.length;
};

try {
  const started = Date.now();
  const description = capability.describe();
  await orchestrator.install(description, proc.address);
  console.log(`== example is ready after ${Date.now() - started} ms (${proc.address}, production entrypoint)`);

  await orchestrator.call("catalogue-example__echo", { text: "Hello from the example capability" });
  show();
  const made = await orchestrator.call("catalogue-example__make_text_file", {
    filename: "note.txt",
    text: "Artifacts travel between tools without base64.\n",
    _approval_message: "Selu strips this before dispatch",
  });
  show();
  if (!made.ok) throw new Error(made.error);
  const artifact = made.result.artifact as { artifact_id: string };
  await orchestrator.call("catalogue-example__describe_files", { attachments: [{ artifact_id: artifact.artifact_id }] });
  show();

  mkdirSync(outDir, { recursive: true });
  writeFileSync(`${outDir}note.txt`, orchestrator.vault.get(artifact.artifact_id)!.bytes);
  writeFileSync(`${outDir}transcript.json`, JSON.stringify(orchestrator.transcript, null, 2));
  console.log(`\n== the artifact and the transcript are in ${outDir}`);
} finally {
  await orchestrator.close();
  console.log(`== SIGTERM: the capability drained and exited with code ${await proc.stop()}`);
}
