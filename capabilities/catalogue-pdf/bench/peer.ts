// The peer of the side-by-side bench: Selu's first-party pdf agent (selu-bot/selu-agent-pdf at its ReportLab
// version), run from Debian's Python packages (scripts/install-bench-deps.sh) by bench/peer/serve.py behind
// the same orchestrator double as ours. Its source stays outside this repository: PEER_PDF_SERVER names its
// server.py. Also turns our document model into the peer's (sections of heading + markdown-ish text), so
// both sides render the same words.
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Orchestrator, peakRssMiB, rssMiB } from "@selu-catalogue/testkit";
import { cpuMs } from "./cpu.ts";

const here = fileURLToPath(new URL(".", import.meta.url));
const protoDir = fileURLToPath(new URL("../../../proto/capability/v1", import.meta.url));
/** The peer's manifest as far as the double reads it (its id is `pdf`; its resources allow 512 MiB). */
export const PEER_MANIFEST = {
  id: "pdf",
  tools: [{ name: "create_pdf_document", input_schema: { type: "object", required: ["title", "sections"] } }],
  credentials: [],
  sharing: { mode: "shared" as const, max_concurrent: 4 },
};
export const PEER_MEMORY_MB = 512;

/** The peer's server.py with its Debian packages installed, or why the peer side is skipped. */
export function peerSource(): { path: string } | { skip: string } {
  const path = process.env.PEER_PDF_SERVER;
  if (!path) return { skip: "set PEER_PDF_SERVER to the server.py of selu-bot/selu-agent-pdf at its ReportLab version (commit ab7ba26)" };
  if (!existsSync(path)) return { skip: `PEER_PDF_SERVER=${path} does not exist` };
  try {
    execFileSync("bash", [fileURLToPath(new URL("../../../scripts/install-bench-deps.sh", import.meta.url))], { stdio: ["ignore", "ignore", "pipe"] });
  } catch (err) {
    return { skip: `its Debian packages could not be installed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}` };
  }
  return { path };
}

/** Starts the peer and installs it in a fresh orchestrator double; resolves once its Healthcheck says ready. */
export async function startPeer(serverPy: string) {
  const child = spawn("/usr/bin/python3", [`${here}peer/serve.py`, protoDir, serverPy], { stdio: ["ignore", "pipe", "ignore"] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the peer exited with ${code} before serving`)));
    createInterface({ input: child.stdout! }).once("line", resolve);
  });
  const orchestrator = new Orchestrator();
  await orchestrator.install(PEER_MANIFEST, `127.0.0.1:${port}`);
  return {
    orchestrator,
    pid: child.pid!,
    call: (args: Record<string, unknown>) => orchestrator.call("pdf__create_pdf_document", args),
    peakRss: () => peakRssMiB(child.pid!),
    rss: () => rssMiB(child.pid!),
    cpuMs: () => cpuMs(child.pid!),
    async stop() {
      await orchestrator.close();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

type Item = string | { text: string; items?: Item[] };
type Block = string | ({ type: string } & Record<string, unknown>);

/** Our document's text in the peer's model: lists as `- ` lines, tables as markdown tables, quotes as `> `. */
export function toPeerArgs(doc: { title: string; author?: string; subtitle?: string; sections: { heading: string; content: Block[] }[] }) {
  const flat = (items: Item[]): string[] => items.flatMap((i) => (typeof i === "string" ? [i] : [i.text, ...flat(i.items ?? [])]));
  const block = (b: Block): string => {
    if (typeof b === "string") return b;
    switch (b.type) {
      case "paragraph":
      case "code":
        return b.text as string;
      case "quote":
        return `> ${b.text as string}`;
      case "list":
        return flat(b.items as Item[])
          .map((t, i) => (b.ordered ? `${i + 1}. ${t}` : `- ${t}`))
          .join("\n");
      case "table": {
        const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
        const columns = b.columns as { header: string }[];
        return [row(columns.map((c) => c.header)), row(columns.map(() => "---")), ...(b.rows as string[][]).map(row)].join("\n");
      }
      default:
        return "";
    }
  };
  return {
    title: doc.title,
    ...(doc.subtitle ? { summary: doc.subtitle } : {}),
    ...(doc.author ? { author: doc.author } : {}),
    sections: doc.sections.map((s) => ({ heading: s.heading, content: s.content.map(block).filter(Boolean).join("\n\n") })),
  };
}
