import type { TranscriptEntry } from "./types.js";

/** One transcript step as a person reads it in a demo: who did what, with the JSON indented. */
export function formatTranscriptEntry(entry: TranscriptEntry): string {
  const json = (value: unknown) => JSON.stringify(value, null, 2).replaceAll("\n", "\n   ");
  switch (entry.kind) {
    case "call":
      return `\n-> the model calls ${entry.tool}\n   ${json(entry.args)}`;
    case "invoke":
      return `   orchestrator: Invoke ${entry.toolName} with args_json\n   ${json(entry.args)}`;
    case "upload":
      return `   orchestrator: uploaded artifact ${entry.artifactId} (${entry.filename}, ${entry.sizeBytes} bytes, ${plural(entry.chunks, "chunk")}) -> ${entry.capabilityArtifactId}`;
    case "raw-result":
      return `   capability: result_json\n   ${json(entry.result)}`;
    case "download":
      return `   orchestrator: downloaded ${entry.capabilityArtifactId} (${entry.filename}, ${entry.sizeBytes} bytes, ${plural(entry.chunks, "chunk")}) and stored it as ${entry.artifactId}`;
    case "result":
      return `<- the model sees\n   ${json(entry.result)}`;
    case "error":
      return `<- error (${entry.stage}): ${entry.error}`;
    case "reply":
      return `<= the turn ends; the user reads (verbatim${entry.attachments.length ? `, with ${plural(entry.attachments.length, "attachment")}: ${entry.attachments.map((a) => a.filename).join(", ")}` : ""})\n   ${entry.text.replaceAll("\n", "\n   ")}`;
    case "finding":
      return `!! ${entry.finding}`;
  }
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
