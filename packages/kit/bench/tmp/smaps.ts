import { readFileSync } from "node:fs";
import { buildChildren, freePort, ServerChild, type ServerKind } from "../children.ts";
import { nodeFlags } from "../flags.ts";
import { connect, invokeRequest, pollReady, throughput } from "../load.ts";
buildChildren();
const child = new ServerChild((process.argv[2] ?? "kit") as ServerKind, await freePort(), nodeFlags());
await pollReady(child.port, 20, 10_000);
const client = connect(child.port);
const regions = () => {
  const text = readFileSync(`/proc/${child.pid}/smaps`, "utf8");
  const out: [string, number][] = [];
  let header = "";
  for (const line of text.split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) header = line;
    else if (line.startsWith("Anonymous:")) {
      const kb = Number(line.split(/\s+/)[1]);
      if (kb > 1024) out.push([header.slice(0, 100), kb]);
    }
  }
  return out;
};
const before = regions();
await throughput(client, invokeRequest("echo", { text: "hello" }), Number(process.argv[3] ?? 64), 1500, 100000);
const after = regions();
console.log("before", before.map(([h, kb]) => `${(kb / 1024).toFixed(1)}M ${h}`).join("\n"));
console.log("after", after.map(([h, kb]) => `${(kb / 1024).toFixed(1)}M ${h}`).join("\n"));
console.log(readFileSync(`/proc/${child.pid}/status`, "utf8").split("\n").filter((l) => /Threads|RssAnon/.test(l)).join(" "));
client.close();
child.process.disconnect(); await new Promise((r) => child.process.once("exit", r));
process.exit(0);
