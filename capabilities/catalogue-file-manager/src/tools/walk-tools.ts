import { lstat } from "node:fs/promises";
import { z } from "zod";
import { displayPath } from "../workspace/relative-path.js";
import { at } from "../workspace/secure-fs.js";
import { walk, type WalkEntry } from "../workspace/walk.js";
import { anyGlob, globMatcher } from "./glob.js";
import { cutUtf8, pathArg, RESULT_BUDGET_BYTES, type FmTool, type ToolEnv } from "./shared.js";

const excludeArg = z.array(z.string().min(1).max(200)).max(50).optional().describe('Glob patterns to leave out, e.g. ["node_modules", "*.log"]; a pattern without "/" matches a name at any depth');

/** A walk's exclusion test on paths relative to its start. */
export function excluder(start: readonly string[], patterns: readonly string[] | undefined): ((e: WalkEntry) => boolean) | undefined {
  const match = anyGlob(patterns);
  return match && ((e) => match(e.parts.slice(start.length).join("/")));
}

/** directory_tree: an indented outline of a directory, to a depth (read-only). */
export const directoryTree = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Shows a directory and its subdirectories as an indented outline (directories end with /, files show their size), " +
      "to max_depth levels, leaving out excluded names. Links are shown with -> and never entered.",
    input: z.object({
      path: z.string().default(".").describe('Directory relative to the workspace root; "." is the root'),
      max_depth: z.number().int().min(1).max(20).default(3).describe("Levels to show"),
      exclude: excludeArg,
    }),
    policy: "allow",
    async run({ path, max_depth, exclude }, ctx) {
      const start = pathArg(path, "path");
      const rows: { parts: string[]; line: string }[] = [];
      let used = 0;
      let truncated = false;
      const exclusion = excluder(start, exclude);
      // The walk is breadth first, so a cut drops the deepest levels; rows are put in outline order after.
      await walk(env.fs, start, "path", { maxDepth: max_depth, signal: ctx.signal, ...(exclusion ? { exclude: exclusion } : {}) }, async (entry, dir) => {
        const name = entry.parts.at(-1)!;
        let suffix = "";
        if (entry.kind === "directory") suffix = "/";
        else if (entry.kind === "symlink") suffix = " -> (link, not followed)";
        else if (entry.kind === "other") suffix = " (special file)";
        else suffix = ` (${(await lstat(at(dir.handle, name)).catch(() => undefined))?.size ?? "?"} B)`;
        const line = `${"  ".repeat(entry.depth - 1)}${name}${suffix}`;
        used += Buffer.byteLength(line) + 1;
        if (used > RESULT_BUDGET_BYTES || rows.length >= env.options.maxWalkEntries) {
          truncated = true;
          return "stop";
        }
        rows.push({ parts: entry.parts, line });
      });
      rows.sort((a, b) => comparePaths(a.parts, b.parts));
      return {
        path: displayPath(start),
        tree: rows.map((r) => r.line).join("\n"),
        entries: rows.length,
        truncated,
        ...(truncated ? { hint: "the outline was cut to fit; use a smaller max_depth, exclude, or a subdirectory" } : {}),
      };
    },
  });

/** search_files: paths matching a glob below a directory (read-only). */
export const searchFiles = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      'Finds files and directories whose path matches a glob, below a directory: "*.pdf" (any depth), "reports/**/2026-*.csv", ' +
      '"{src,test}/**/*.ts". Returns paths relative to the workspace root.',
    input: z.object({
      pattern: z.string().min(1).max(500).describe("Glob pattern"),
      path: z.string().default(".").describe("Directory to search in"),
      exclude: excludeArg,
      max_results: z.number().int().min(1).max(1000).default(200).describe("Matches to return at most"),
    }),
    policy: "allow",
    async run({ pattern, path, exclude, max_results }, ctx) {
      const start = pathArg(path, "path");
      const match = globMatcher(pattern);
      const matches: string[] = [];
      let used = 0;
      let truncated = false;
      let visited = 0;
      const exclusion = excluder(start, exclude);
      await walk(env.fs, start, "path", { maxDepth: 64, signal: ctx.signal, ...(exclusion ? { exclude: exclusion } : {}) }, (entry) => {
        if (++visited > env.options.maxWalkEntries) return ((truncated = true), "stop");
        if (!match(entry.parts.slice(start.length).join("/"))) return;
        const shown = entry.kind === "directory" ? `${entry.path}/` : entry.path;
        used += Buffer.byteLength(shown) + 4;
        if (matches.length >= max_results || used > RESULT_BUDGET_BYTES) return ((truncated = true), "stop");
        matches.push(shown);
      });
      return { pattern: cutUtf8(pattern, 200).text, matches, truncated };
    },
  });

function comparePaths(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}
