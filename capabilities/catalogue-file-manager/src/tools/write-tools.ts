import { ToolError, formatBytes } from "@selu-catalogue/kit";
import { z } from "zod";
import { writeAtomic } from "../workspace/atomic-write.js";
import { copy } from "../workspace/copy.js";
import { move } from "../workspace/move.js";
import { displayPath } from "../workspace/relative-path.js";
import { remove } from "../workspace/remove.js";
import { budgetFor, cutUtf8, pathArg, RESULT_BUDGET_BYTES, type FmTool, type ToolEnv } from "./shared.js";
import { unifiedDiff } from "./unified-diff.js";

const MAX_CONTENT_CHARS = 5_000_000;
const MAX_EDIT_BYTES = 8 * 1024 * 1024;

/** write_file: creates or replaces a text file atomically (asks first). */
export const writeFile = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Writes text to a workspace file (UTF-8), creating missing parent directories. An existing file is replaced only " +
      "with overwrite: true. The write is atomic: readers see the old file or the new one, never a mix.",
    input: z.object({
      path: z.string().min(1).describe("File relative to the workspace root"),
      content: z.string().max(MAX_CONTENT_CHARS).describe("The file's new content"),
      overwrite: z.boolean().default(false).describe("Replace the file if it exists"),
    }),
    policy: "ask",
    async run({ path, content, overwrite }, ctx) {
      const parts = pathArg(path, "path");
      const bytes = await writeAtomic(env.fs, parts, Buffer.from(content, "utf8"), budgetFor(env), "path", { overwrite, createParents: true }, ctx.signal);
      return { path: displayPath(parts), bytes_written: bytes };
    },
  });

/** edit_file: exact text replacements, or their diff without writing (asks first). */
export const editFile = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Edits a UTF-8 text file by exact replacements: each old_text must occur exactly once (include surrounding lines to " +
      "make it unique). Returns a unified diff; with dry_run: true nothing is written.",
    input: z.object({
      path: z.string().min(1).describe("File relative to the workspace root"),
      edits: z
        .array(
          z.object({
            old_text: z.string().min(1).describe("Text to replace, exactly as in the file"),
            new_text: z.string().describe("Replacement text"),
          }),
        )
        .min(1)
        .max(50)
        .describe("Replacements, applied in order"),
      dry_run: z.boolean().default(false).describe("Only show the diff"),
    }),
    policy: "ask",
    async run({ path, edits, dry_run }, ctx) {
      const parts = pathArg(path, "path");
      const shown = displayPath(parts);
      const { handle, stat } = await env.fs.openFile(parts, "path");
      let before: string;
      try {
        if (stat.size > MAX_EDIT_BYTES) throw new ToolError(`path: ${shown} is ${formatBytes(stat.size)}; edit_file edits files up to ${formatBytes(MAX_EDIT_BYTES)}`);
        const bytes = await handle.readFile();
        before = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch (err) {
        if (err instanceof TypeError) throw new ToolError(`path: ${shown} is not UTF-8 text; edit_file only edits UTF-8 files`);
        throw err;
      } finally {
        await handle.close();
      }
      let after = before;
      edits.forEach((edit, i) => {
        const at = after.indexOf(edit.old_text);
        if (at < 0) throw new ToolError(`edits[${i}].old_text: not found in ${shown}${i > 0 ? " (after the earlier edits)" : ""}; copy it exactly from read_file`);
        if (after.indexOf(edit.old_text, at + 1) >= 0) throw new ToolError(`edits[${i}].old_text: occurs more than once in ${shown}; include more surrounding text to make it unique`);
        after = after.slice(0, at) + edit.new_text + after.slice(at + edit.old_text.length);
      });
      const diff = cutUtf8(unifiedDiff(shown, before, after), RESULT_BUDGET_BYTES);
      if (!dry_run) await writeAtomic(env.fs, parts, Buffer.from(after, "utf8"), budgetFor(env), "path", { overwrite: true }, ctx.signal);
      return { path: shown, applied: !dry_run, diff: diff.text, ...(diff.cut ? { diff_truncated: true } : {}) };
    },
  });

/** create_directory: a directory and its missing parents (asks first). */
export const createDirectory = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Creates a directory in the workspace, with any missing parent directories. An existing directory is fine.",
    input: z.object({ path: z.string().min(1).describe("Directory relative to the workspace root") }),
    policy: "ask",
    async run({ path }) {
      const parts = pathArg(path, "path");
      if (parts.length === 0) throw new ToolError("path: the workspace root already exists; name a directory below it");
      await (await env.fs.openDir(parts, "path", true)).close();
      return { path: displayPath(parts), created: true };
    },
  });

/** move: moves or renames a file or directory (asks first). */
export const moveTool = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Moves or renames a file or directory inside the workspace. An existing destination is replaced only with overwrite: true.",
    input: z.object({
      source: z.string().min(1).describe("What to move"),
      destination: z.string().min(1).describe("New path (missing parent directories are created)"),
      overwrite: z.boolean().default(false).describe("Replace an existing destination"),
    }),
    policy: "ask",
    async run({ source, destination, overwrite }) {
      const from = pathArg(source, "source");
      const to = pathArg(destination, "destination");
      await move(env.fs, from, to, overwrite);
      return { source: displayPath(from), destination: displayPath(to) };
    },
  });

/** copy: copies a file or a directory tree (asks first). */
export const copyTool = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Copies a file or a directory tree inside the workspace. Links and special files in a tree are skipped and listed.",
    input: z.object({
      source: z.string().min(1).describe("What to copy"),
      destination: z.string().min(1).describe("Path of the copy"),
      overwrite: z.boolean().default(false).describe("Replace existing files at the destination"),
    }),
    policy: "ask",
    async run({ source, destination, overwrite }, ctx) {
      const from = pathArg(source, "source");
      const to = pathArg(destination, "destination");
      const copied = await copy(env.fs, from, to, budgetFor(env), overwrite, ctx.signal);
      return { source: displayPath(from), destination: displayPath(to), ...copied, skipped: copied.skipped.slice(0, 50) };
    },
  });

/** delete: a file, a link, an empty directory, or a tree with recursive: true (asks first). */
export const deleteTool = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Deletes a file or link (never what a link points to), or a directory: an empty one as is, one with contents only with recursive: true.",
    input: z.object({
      path: z.string().min(1).describe("What to delete"),
      recursive: z.boolean().default(false).describe("Delete a directory with everything in it"),
    }),
    policy: "ask",
    async run({ path, recursive }, ctx) {
      const parts = pathArg(path, "path");
      const removed = await remove(env.fs, parts, "path", recursive, ctx.signal);
      return { path: displayPath(parts), deleted: removed };
    },
  });
