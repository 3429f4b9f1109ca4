/** One Dockerfile instruction with its line number (continuation lines joined). */
interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

export interface DockerfileExpectations {
  /** The package's start script, e.g. `node --max-old-space-size=64 dist/main.js`. */
  startScript: string;
  /** The manifest uses /workspace (filesystem: workspace). */
  workspace?: boolean;
  /** The manifest enables /cache. */
  cache?: boolean;
}

/**
 * Checks a capability's Dockerfile against what Selu's runner needs and our conventions: multi-stage,
 * every base image pinned to an exact version or digest, a non-root USER (1000) in the final stage,
 * EXPOSE 50051, an exec-form CMD equal to the start script, and /workspace and /cache created and owned
 * by 1000 where the manifest uses them, and MALLOC_ARENA_MAX set (glibc's default of one malloc arena per
 * thread held about 18 MiB more at peak in the kit's bench), the app owned by root, and the OCI labels
 * source, version, description and licenses. A base image may come from an ARG's default
 * (`ARG NODE_IMAGE=node:24.21.0-bookworm-slim`, `FROM ${NODE_IMAGE}`). Returns one message per problem.
 */
export function checkDockerfile(text: string, expect: DockerfileExpectations): string[] {
  const instructions = parse(text);
  const problems: string[] = [];
  const froms = instructions.filter((i) => i.keyword === "FROM");
  if (froms.length < 2) problems.push("Dockerfile: use a multi-stage build (a build stage, then a slim runtime stage)");
  const stageNames = new Set(froms.map((f) => /\bAS\s+(\S+)/i.exec(f.args)?.[1]?.toLowerCase()).filter(Boolean));
  const args = globalArgs(instructions);
  for (const from of froms) {
    const written = from.args.replace(/--platform=\S+\s+/, "").split(/\s+/)[0] ?? "";
    // FROM ${NODE_IMAGE}: the ARG's default is what a plain build uses (the release pins a digest in it).
    const image = written.replace(/\$\{?(\w+)\}?/g, (_, name: string) => args[name] ?? "");
    if (stageNames.has(image.toLowerCase())) continue;
    if (!isPinned(image)) problems.push(`Dockerfile:${from.line}: pin the base image to an exact version or digest (got ${image})`);
  }
  const lastFrom = froms.at(-1);
  const final = lastFrom ? instructions.filter((i) => i.line > lastFrom.line) : instructions;
  const user = final.filter((i) => i.keyword === "USER").at(-1);
  if (!user || !/^1000(:1000)?$/.test(user.args.trim())) problems.push("Dockerfile: the final stage must set USER 1000:1000 (Selu runs as uid 1000)");
  if (!final.some((i) => i.keyword === "EXPOSE" && i.args.split(/\s+/).includes("50051"))) problems.push("Dockerfile: EXPOSE 50051 (the port Selu dials)");
  const cmd = final.filter((i) => i.keyword === "CMD").at(-1);
  const expected = expect.startScript.trim().split(/\s+/);
  let actual: unknown;
  try {
    actual = cmd ? JSON.parse(cmd.args) : undefined;
  } catch {
    actual = undefined;
  }
  if (!Array.isArray(actual)) problems.push("Dockerfile: CMD must be in exec form (a JSON array) so SIGTERM reaches node");
  else if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    problems.push(`Dockerfile: CMD ${JSON.stringify(actual)} differs from the start script ${JSON.stringify(expected)}`);
  }
  if (!/^[1-4]$/.test(imageEnv(text).MALLOC_ARENA_MAX ?? "")) {
    problems.push("Dockerfile: set ENV MALLOC_ARENA_MAX=2 in the final stage (one malloc arena per thread wastes memory in a 128 MB container)");
  }
  // Issue 13: the app is root's and only readable by the runtime user, so the process can't rewrite itself.
  if (final.some((i) => i.keyword === "COPY" && /--chown=(1000|node)\b/.test(i.args))) {
    problems.push("Dockerfile: copy the app owned by root (no --chown=1000 in the final stage), read-only to uid 1000");
  }
  const labels = final
    .filter((i) => i.keyword === "LABEL")
    .map((i) => i.args)
    .join(" ");
  for (const key of ["source", "version", "description", "licenses"]) {
    if (!labels.includes(`org.opencontainers.image.${key}=`)) problems.push(`Dockerfile: set LABEL org.opencontainers.image.${key} in the final stage`);
  }
  const runs = final
    .filter((i) => i.keyword === "RUN")
    .map((i) => i.args)
    .join("\n");
  for (const [needed, dir] of [
    [expect.workspace, "/workspace"],
    [expect.cache, "/cache"],
  ] as const) {
    if (!needed) continue;
    if (!runs.includes(dir) || !new RegExp(`chown[^\\n]*1000(:1000)?[^\\n]*${dir}`).test(runs)) {
      problems.push(`Dockerfile: create ${dir} owned by 1000:1000 in the final stage (the manifest uses it)`);
    }
  }
  return problems;
}

/** The environment the final stage's ENV instructions set: what the image runs with. */
export function imageEnv(text: string): Record<string, string> {
  const instructions = parse(text);
  const lastFrom = instructions.filter((i) => i.keyword === "FROM").at(-1);
  const env: Record<string, string> = {};
  for (const { keyword, args, line } of instructions) {
    if (keyword !== "ENV" || (lastFrom && line < lastFrom.line)) continue;
    const pairs = [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)];
    if (pairs.length === 0) {
      // Legacy form: ENV NAME value with spaces
      const legacy = /^(\S+)\s+(.*)$/.exec(args);
      if (legacy) env[legacy[1]!] = legacy[2]!;
      continue;
    }
    for (const [, name, raw] of pairs) env[name!] = raw!.startsWith('"') ? (JSON.parse(raw!) as string) : raw!;
  }
  return env;
}

/** The defaults of the ARGs declared before the first FROM, which FROM lines may use. */
function globalArgs(instructions: Instruction[]): Record<string, string> {
  const args: Record<string, string> = {};
  for (const { keyword, args: text } of instructions) {
    if (keyword === "FROM") break;
    const match = /^(\w+)=(\S+)$/.exec(text);
    if (keyword === "ARG" && match) args[match[1]!] = match[2]!;
  }
  return args;
}

function isPinned(image: string): boolean {
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const tag = /:([^/:@]+)$/.exec(image)?.[1];
  // An exact version: at least major.minor.patch (node:24.21.0-bookworm-slim), never latest or node:24.
  return tag !== undefined && /^v?\d+\.\d+\.\d+/.test(tag);
}

function parse(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!;
    if (/^\s*(#|$)/.test(line)) continue;
    while (line.trimEnd().endsWith("\\") && i + 1 < lines.length) line = line.trimEnd().slice(0, -1) + " " + lines[++i]!.trim();
    const match = /^\s*(\w+)\s+(.*)$/.exec(line);
    if (match) out.push({ line: start + 1, keyword: match[1]!.toUpperCase(), args: match[2]!.trim() });
  }
  return out;
}
