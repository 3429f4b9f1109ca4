import { z } from "zod";
import { ToolError } from "@selu-catalogue/kit";
import { PathError } from "../workspace/errors.js";
import { walk } from "../workspace/walk.js";
import { anyGlob } from "./glob.js";
import { GREP_BLOCK_BYTES, GREP_TEXT_BLOCK_BYTES, grepFile, type Matcher } from "./grep-file.js";
import { linearRegex } from "./linear-regex.js";
import { requiredLiteral } from "./required-literal.js";
import { cutUtf8, pathArg, RESULT_BUDGET_BYTES, type FmTool, type ToolEnv } from "./shared.js";
import { excluder } from "./walk-tools.js";

const MAX_LINE_CHARS = 300;

/** grep: lines matching a text or pattern in the workspace's files, with line numbers (read-only). */
export const grep = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Searches the contents of text files for a text (or a regular expression with regex: true) and returns matching " +
      "lines with file and line number. Binary files, links and excluded names are skipped. Narrow with path and include.",
    input: z.object({
      pattern: z.string().min(1).max(1000).describe("Text to find (or a regular expression, see regex)"),
      path: z.string().default(".").describe("File or directory to search"),
      regex: z.boolean().default(false).describe("Treat pattern as a regular expression (no backreferences or lookaround)"),
      case_sensitive: z.boolean().default(true).describe("Match upper and lower case exactly"),
      include: z.array(z.string().min(1).max(200)).max(50).optional().describe('Only files matching one of these globs, e.g. ["*.md"]'),
      exclude: z.array(z.string().min(1).max(200)).max(50).optional().describe('Globs to skip, e.g. ["node_modules"]'),
      max_matches: z.number().int().min(1).max(1000).default(100).describe("Matching lines to return at most"),
    }),
    policy: "allow",
    async run(args, ctx) {
      const start = pathArg(args.path, "path");
      const matcher = matcherFor(args.pattern, args.regex, args.case_sensitive);
      const include = anyGlob(args.include);
      const matches: { path: string; line: number; text: string }[] = [];
      let used = 0;
      let truncated = false;
      let filesSearched = 0;
      let skipped = 0;
      // One read buffer per call, allocated at the first file searched; smaller for a regular expression,
      // whose blocks are decoded to strings on the JavaScript heap.
      let scratch: { block: Buffer; folded?: Buffer } | undefined;
      const searchOne = async (parts: string[], path: string): Promise<boolean> => {
        let opened;
        try {
          opened = await env.fs.openFile(parts, "path");
        } catch (err) {
          if (err instanceof PathError) return (skipped++, true);
          throw err;
        }
        try {
          const head = Buffer.alloc(8192);
          const { bytesRead } = await opened.handle.read(head, 0, head.length, 0);
          if (head.subarray(0, bytesRead).includes(0)) return (skipped++, true);
          filesSearched++;
          return await grepFile(
            opened.handle,
            opened.stat.size,
            matcher,
            (line, text) => {
              const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
              const match = { path, line, text: shown };
              used += Buffer.byteLength(JSON.stringify(match)) + 1;
              if (matches.length >= args.max_matches || used > RESULT_BUDGET_BYTES) return ((truncated = true), false);
              matches.push(match);
              return true;
            },
            (scratch ??= { block: Buffer.allocUnsafeSlow(matcher.kind === "bytes" || matcher.literal ? GREP_BLOCK_BYTES : GREP_TEXT_BLOCK_BYTES) }),
            ctx.signal,
          );
        } finally {
          await opened.handle.close();
        }
      };
      const { dir, name } = start.length > 0 ? await env.fs.openParent(start, "path") : { dir: undefined, name: "" };
      const single = dir ? await env.fs.lstatAt(dir, name).finally(() => dir.close()) : undefined;
      if (dir && !single) throw new ToolError(`path: ${start.join("/")} does not exist`);
      if (single && !single.isDirectory()) await searchOne(start, start.join("/"));
      else {
        let visited = 0;
        const exclusion = excluder(start, args.exclude);
        await walk(env.fs, start, "path", { maxDepth: 64, signal: ctx.signal, ...(exclusion ? { exclude: exclusion } : {}) }, async (entry) => {
          if (++visited > env.options.maxWalkEntries) return ((truncated = true), "stop");
          if (entry.kind !== "file") return;
          if (include && !include(entry.parts.slice(start.length).join("/"))) return;
          return (await searchOne(entry.parts, entry.path)) ? undefined : "stop";
        });
      }
      return { pattern: cutUtf8(args.pattern, 200).text, matches, files_searched: filesSearched, files_skipped: skipped, truncated };
    },
  });

/**
 * A case-sensitive literal is searched as bytes; anything else as a regular expression, prefiltered by
 * the literal every match must contain (lowercased ASCII for a case-insensitive search) when there is one.
 */
function matcherFor(pattern: string, regex: boolean, caseSensitive: boolean): Matcher {
  if (!regex && caseSensitive) return { kind: "bytes", needle: Buffer.from(pattern, "utf8") };
  const re = linearRegex(pattern, { regex, caseSensitive });
  let literal = regex ? requiredLiteral(pattern) : pattern;
  // Lowercasing bytes is right for ASCII only; other letters are left to the regular expression.
  if (literal !== undefined && !caseSensitive && !/^[\x00-\x7f]*$/.test(literal)) literal = undefined;
  return { kind: "regex", re, literal: literal === undefined ? undefined : Buffer.from(caseSensitive ? literal : literal.toLowerCase(), "utf8"), fold: !caseSensitive };
}
