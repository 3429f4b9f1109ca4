import { ToolError, formatBytes } from "@selu-catalogue/kit";
import { z } from "zod";
import { displayPath } from "../workspace/relative-path.js";
import { ENCODINGS, readHead, readLines, sniffEncoding, type Encoding } from "./text-decoding.js";
import { cutUtf8, pathArg, RESULT_BUDGET_BYTES, type FmTool, type ToolEnv } from "./shared.js";

const MAX_TAIL_LINES = 10_000;

interface ReadRequest {
  path: string;
  start_line?: number | undefined;
  line_count?: number | undefined;
  tail?: number | undefined;
  encoding: Encoding;
}

/** Reads a page of a text file's lines within `budget` bytes of content. */
export async function readTextPage(env: ToolEnv, req: ReadRequest, field: string, budget: number, signal?: AbortSignal) {
  const parts = pathArg(req.path, field);
  const path = displayPath(parts);
  const { handle, stat } = await env.fs.openFile(parts, field);
  try {
    if (stat.size > env.options.maxReadBytes) {
      throw new ToolError(`${field}: ${path} is ${formatBytes(stat.size)}, over the ${formatBytes(env.options.maxReadBytes)} this tool reads; use grep to find the part you need`);
    }
    const head = await readHead(handle);
    const sniffed = req.encoding === "auto" ? sniffEncoding(head, path) : { encoding: req.encoding, bom: 0 };
    const bom = req.encoding === "auto" ? sniffed.bom : 0;
    const lines: string[] = [];
    let used = 0;
    let lineNo = 0;
    let first = req.tail ? 0 : (req.start_line ?? 1);
    let stoppedAt: number | null = null;
    let cutLines = 0;
    let dropped = 0;
    const wanted = req.line_count ?? Number.POSITIVE_INFINITY;
    for await (const line of readLines(handle, sniffed.encoding, bom, budget, signal)) {
      lineNo++;
      if (req.tail) {
        // A window of the last lines, never more than `tail` of them nor (past one line) `budget` bytes.
        lines.push(line.text);
        used += Buffer.byteLength(line.text) + 1;
        while (lines.length - dropped > req.tail || (used > budget && lines.length - dropped > 1)) used -= Buffer.byteLength(lines[dropped++]!) + 1;
        if (dropped > 4096) lines.splice(0, dropped), (dropped = 0);
        continue;
      }
      if (lineNo < first) continue;
      if (lines.length >= wanted || used + Buffer.byteLength(line.text) + 1 > budget) {
        if (lines.length === 0) {
          // One line longer than the whole budget: show its start rather than nothing.
          lines.push(cutUtf8(line.text, budget).text);
          cutLines++;
          stoppedAt = lineNo + 1;
        } else stoppedAt = lineNo;
        break;
      }
      if (line.cut) cutLines++;
      lines.push(line.text);
      used += Buffer.byteLength(line.text) + 1;
    }
    if (req.tail) {
      lines.splice(0, dropped);
      if (used > budget && lines.length === 1) lines[0] = cutUtf8(lines[0]!, budget).text;
      first = lineNo - lines.length + 1;
    }
    return {
      path,
      size: stat.size,
      encoding: sniffed.encoding,
      start_line: first,
      end_line: first + lines.length - 1,
      ...(stoppedAt === null ? { total_lines: lineNo } : { next_start_line: stoppedAt }),
      ...(cutLines > 0 ? { lines_cut: cutLines } : {}),
      content: lines.join("\n"),
    };
  } finally {
    await handle.close();
  }
}

const readFileInput = {
  start_line: z.number().int().min(1).optional().describe("First line to return (1-based); default 1"),
  line_count: z.number().int().min(1).optional().describe("Lines to return at most"),
  tail: z.number().int().min(1).max(MAX_TAIL_LINES).optional().describe("Return the last N lines instead"),
  encoding: z.enum(ENCODINGS).default("auto").describe("Text encoding; auto detects a byte-order mark, UTF-8 or Windows-1252"),
};

/** read_file: a text file, whole or a range of lines, paged to fit the result bound (read-only). */
export const readFile = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Reads a text file from the workspace (encoding detected). Long files come in pages: the result has " +
      "next_start_line when there is more; pass it as start_line. Use tail for the end of a log. Binary files: use export_file.",
    input: z.object({ path: z.string().min(1).describe("File relative to the workspace root"), ...readFileInput }),
    policy: "allow",
    async run(args, ctx) {
      if (args.tail !== undefined && (args.start_line !== undefined || args.line_count !== undefined)) {
        throw new ToolError("tail: can't be combined with start_line or line_count");
      }
      return readTextPage(env, args, "path", RESULT_BUDGET_BYTES, ctx.signal);
    },
  });

/** read_files: several text files at once, sharing the result bound (read-only). */
export const readFiles = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Reads several text files at once (up to 20). Each gets an equal share of the result's size; a file that " +
      "can't be read reports its error without failing the others. Use read_file to page through a long one.",
    input: z.object({ paths: z.array(z.string().min(1)).min(1).max(20).describe("Files relative to the workspace root") }),
    policy: "allow",
    async run({ paths }, ctx) {
      const share = Math.floor(RESULT_BUDGET_BYTES / paths.length) - 200;
      const files = [];
      for (const [i, path] of paths.entries()) {
        try {
          files.push(await readTextPage(env, { path, encoding: "auto" }, `paths[${i}]`, share, ctx.signal));
        } catch (err) {
          if (!(err instanceof ToolError)) throw err;
          files.push({ path: cutUtf8(path, 300).text, error: err.message });
        }
      }
      return { files };
    },
  });
