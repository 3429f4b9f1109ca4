// Issue 11, item 5: the `@example`s in the kit's doc comments and the README's TypeScript snippets
// type-check against the kit as it is, so documentation can't drift from the API. Each example is
// compiled as its own module, with the names examples take as given (a tool's `ctx`, a `proxy`, ...)
// declared in one prelude.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const kitDir = fileURLToPath(new URL("..", import.meta.url));
const repoDir = join(kitDir, "..", "..");

const PRELUDE = `
import { z } from "zod";
import { attachments, defineCapability, installStandIns, isAbortError, serve, shortenString, tool, ToolError, type Capability, type DiscoverySpec, type ToolContext } from "../index.ts";
import { createHttpClient, openTunnel, proxyFromEnv, type HttpTimeouts, type ProxyConfig } from "../egress/index.ts";
import type { Socket } from "node:net";
declare const ctx: ToolContext<{ BRAVE_API_KEY: { scope: "user"; description: string } }>;
declare const proxy: ProxyConfig | undefined;
declare const timeouts: HttpTimeouts;
declare const capability: Capability;
declare const nodemailer: {
  createTransport(options: {
    host: string; port: number; secure: boolean;
    getSocket(options: unknown, done: (err: Error | null, socket?: { connection: Socket; secured: boolean }) => void): void;
  }): unknown;
};
void [z, attachments, defineCapability, installStandIns, isAbortError, serve, shortenString, tool, ToolError, createHttpClient, openTunnel, proxyFromEnv, ctx, proxy, timeouts, capability, nodemailer];
`;

interface Example {
  where: string;
  code: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name));
}

function docExamples(): Example[] {
  const examples: Example[] = [];
  for (const file of sourceFiles(join(kitDir, "src"))) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/@example\n((?: \*(?: .*)?\n)+?) \*(?:\/| @)/g)) {
      const code = match[1]!
        .split("\n")
        .map((line) => line.replace(/^ \* ?/, ""))
        .join("\n");
      examples.push({ where: `${file.slice(kitDir.length)}:${text.slice(0, match.index).split("\n").length}`, code });
    }
  }
  const readme = readFileSync(join(repoDir, "README.md"), "utf8");
  for (const match of readme.matchAll(/```ts\n([\s\S]*?)```/g)) {
    examples.push({ where: `README.md:${readme.slice(0, match.index).split("\n").length}`, code: match[1]! });
  }
  return examples;
}

/** An example as a module: its imports of the kit point at the source, and it runs inside an async function. */
function asModule(code: string): string {
  const imports: string[] = [];
  const body: string[] = [];
  for (const line of code.split("\n")) {
    if (!line.startsWith("import ")) {
      body.push(line.replace(/^export default /, "void "));
      continue;
    }
    if (/^import \w+ from "\.\/capability\.js";$/.test(line)) continue; // the prelude's `capability`
    const named = /^import \{(.*)\} from "(.*)";$/.exec(line);
    if (named) {
      // The prelude already has these names: import each under another one, so that it still must exist.
      const names = named[1]!
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean)
        .map((n) => `${n} as imported_${n.replace(/^type /, "")}`);
      imports.push(`import { ${names.join(", ")} } from "${named[2] === "@selu-catalogue/kit" ? "../index.ts" : named[2]}";`);
    } else {
      throw new Error(`an example's import this test does not read: ${line}`);
    }
  }
  // The prelude already imports the kit's values; an example's own import of them only needs to resolve.
  return `${PRELUDE}\n${imports.join("\n")}\nexport async function example(): Promise<void> {\n${body.join("\n")}\n}\n`;
}

describe("documentation examples", () => {
  const examples = docExamples();

  it("finds the examples of the kit's doc comments and README", () => {
    expect(examples.length).toBeGreaterThanOrEqual(6);
  });

  it("type-checks every one against the kit", () => {
    const files = new Map(examples.map((e, i) => [join(kitDir, "src", "__examples__", `example-${i}.ts`), e]));
    const configFile = ts.readConfigFile(join(kitDir, "tsconfig.json"), (p) => ts.sys.readFile(p));
    const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, kitDir);
    const host = ts.createCompilerHost({ ...options, noEmit: true });
    const read = host.readFile.bind(host);
    const exists = host.fileExists.bind(host);
    host.readFile = (name) => (files.has(name) ? asModule(files.get(name)!.code) : read(name));
    host.fileExists = (name) => files.has(name) || exists(name);
    const program = ts.createProgram([...files.keys()], { ...options, noEmit: true, noUnusedLocals: false }, host);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file && files.has(d.file.fileName))
      .map((d) => `${files.get(d.file!.fileName)!.where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  }, 180_000);
});
