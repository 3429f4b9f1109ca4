import { attachments, ToolError } from "@selu-catalogue/kit";
import { z } from "zod";
import { writeAtomic } from "../workspace/atomic-write.js";
import { displayPath, parseRelativePath } from "../workspace/relative-path.js";
import { extract } from "../zip/extract.js";
import type { ArchiveSource } from "../zip/zip-read.js";
import { zipStream, type ZipSource } from "../zip/zip-write.js";
import { walk } from "../workspace/walk.js";
import { budgetFor, pathArg, type FmTool, type ToolEnv } from "./shared.js";

/** A name an uploaded file can be saved under: its last component, checked like any path. */
function savedName(filename: string | undefined, field: string): string {
  const base = (filename ?? "").split(/[\\/]/).filter(Boolean).at(-1) ?? "";
  const parts = parseRelativePath(base || "attachment.bin", field);
  return parts[0] ?? "attachment.bin";
}

/** import_attachment: saves attached files (artifacts) into the workspace (asks first). */
export const importAttachment = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Saves attached files (artifact_id from an earlier tool result or the user) into a workspace directory under their file names.",
    input: z.object({
      attachments: attachments({ description: "Files to save", min: 1, max: 10 }),
      directory: z.string().default(".").describe("Directory to save them in (created when missing)"),
      overwrite: z.boolean().default(false).describe("Replace files that exist"),
    }),
    policy: "ask",
    async run({ attachments: files, directory, overwrite }, ctx) {
      const dir = pathArg(directory, "directory");
      const budget = budgetFor(env);
      const saved = [];
      for (const [i, attachment] of files.entries()) {
        const file = ctx.artifacts.read(attachment, `attachments[${i}]`);
        const parts = [...dir, savedName(file.filename, `attachments[${i}].filename`)];
        const bytes = await writeAtomic(env.fs, parts, file.stream(), budget, `attachments[${i}]`, { overwrite, createParents: true }, ctx.signal);
        saved.push({ path: displayPath(parts), size_bytes: bytes });
      }
      return { saved };
    },
  });

/** zip: paths into a ZIP archive, saved in the workspace or returned as an artifact (asks first). */
export const zipTool = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Packs files and directories into a ZIP archive. With destination it is saved in the workspace; without, it is " +
      "returned as an artifact (filename names it). Links and special files are left out.",
    input: z.object({
      paths: z.array(z.string().min(1)).min(1).max(100).describe("Files and directories to pack, relative to the workspace root"),
      destination: z.string().min(1).optional().describe("Where to save the .zip in the workspace"),
      filename: z.string().min(1).max(200).default("archive.zip").describe("Name of the artifact when there is no destination"),
      overwrite: z.boolean().default(false).describe("Replace an existing destination"),
    }),
    policy: "ask",
    async run({ paths, destination, filename, overwrite }, ctx) {
      const roots = paths.map((p, i) => pathArg(p, `paths[${i}]`));
      let entries = 0;
      const skipped: string[] = [];
      async function* sources(): AsyncGenerator<ZipSource> {
        for (const [i, root] of roots.entries()) {
          const field = `paths[${i}]`;
          if (root.length === 0) throw new ToolError(`${field}: name files or directories below the root, or use "." for each top-level entry`);
          const { dir, name } = await env.fs.openParent(root, field);
          const stat = await env.fs.lstatAt(dir, name).finally(() => dir.close());
          if (!stat) throw new ToolError(`${field}: ${displayPath(root)} does not exist`);
          const base = root.length - 1;
          const one = (parts: string[], directory: boolean, modified: Date): ZipSource => {
            entries++;
            return { name: parts.slice(base).join("/"), directory, modified, ...(directory ? {} : { content: () => fileContent(env, parts, field) }) };
          };
          if (!stat.isDirectory()) {
            if (!stat.isFile()) throw new ToolError(`${field}: ${displayPath(root)} is not a regular file or directory`);
            yield one(root, false, stat.mtime);
            continue;
          }
          yield one(root, true, stat.mtime);
          const found: ZipSource[] = [];
          await walk(env.fs, root, field, { maxDepth: 64, signal: ctx.signal }, (entry) => {
            if (entry.kind === "directory") found.push(one(entry.parts, true, new Date()));
            else if (entry.kind === "file") found.push(one(entry.parts, false, new Date()));
            else skipped.push(entry.path);
            if (entries > env.options.unzip.maxEntries) throw new ToolError(`${field}: more than ${env.options.unzip.maxEntries} entries to pack; zip fewer files at once`);
          });
          yield* found;
        }
      }
      const stream = zipStream(sources(), ctx.signal);
      if (destination) {
        const to = pathArg(destination, "destination");
        const bytes = await writeAtomic(env.fs, to, stream, budgetFor(env), "destination", { overwrite, createParents: true }, ctx.signal);
        return { path: displayPath(to), entries, size_bytes: bytes, ...(skipped.length ? { skipped: skipped.slice(0, 50) } : {}) };
      }
      const artifact = await ctx.artifacts.put(stream, { filename, mimeType: "application/zip" });
      return { entries, artifact, ...(skipped.length ? { skipped: skipped.slice(0, 50) } : {}) };
    },
  });

async function* fileContent(env: ToolEnv, parts: string[], field: string): AsyncGenerator<Uint8Array> {
  const { handle } = await env.fs.openFile(parts, field);
  try {
    yield* handle.createReadStream({ autoClose: false, start: 0 }) as AsyncIterable<Buffer>;
  } finally {
    await handle.close();
  }
}

/** unzip: extracts an archive (a workspace file or an attachment) into a directory (asks first). */
export const unzipTool = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Extracts a ZIP archive, from the workspace (source) or attached (attachments), into a workspace directory. " +
      "Entries that would leave the directory, links and special files are refused or skipped; sizes are limited against ZIP bombs.",
    input: z.object({
      source: z.string().min(1).optional().describe("A .zip file in the workspace"),
      attachments: attachments({ description: "A ZIP file to extract instead of source", min: 1, max: 1 }).optional(),
      destination: z.string().min(1).describe("Directory to extract into (created when missing)"),
      overwrite: z.boolean().default(false).describe("Replace files that exist"),
    }),
    policy: "ask",
    async run({ source, attachments: files, destination, overwrite }, ctx) {
      if ((source === undefined) === (files === undefined)) throw new ToolError("source: give either source (a workspace file) or attachments (an attached ZIP), not both or neither");
      const to = pathArg(destination, "destination");
      const extractFrom = (archive: ArchiveSource) => extract(env.fs, archive, to, budgetFor(env), env.options.unzip, overwrite, ctx.signal);
      let result;
      if (files) {
        const bytes = ctx.artifacts.read(files[0]!, "attachments[0]").bytes();
        result = await extractFrom({ size: bytes.length, read: async (pos, len) => bytes.subarray(pos, pos + len) });
      } else {
        const { handle, stat } = await env.fs.openFile(pathArg(source, "source"), "source");
        try {
          result = await extractFrom({
            size: stat.size,
            read: async (pos, len) => {
              const buffer = Buffer.alloc(len);
              const { bytesRead } = await handle.read(buffer, 0, len, pos);
              return buffer.subarray(0, bytesRead);
            },
          });
        } finally {
          await handle.close();
        }
      }
      return { destination: displayPath(to), ...result, skipped: result.skipped.slice(0, 50) };
    },
  });
