import { ToolError, formatBytes } from "@selu-catalogue/kit";
import { z } from "zod";
import { displayPath } from "../workspace/relative-path.js";
import { kindOf } from "../workspace/secure-fs.js";
import { mimeTypeOf } from "./mime.js";
import { pathArg, type FmTool, type ToolEnv } from "./shared.js";

/** get_file_info: type, size, times and permissions of one entry, links included (read-only). */
export const getFileInfo = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Reports a workspace entry's type, size, modification and change times, permissions and likely MIME type. Links are described, not followed.",
    input: z.object({ path: z.string().default(".").describe("File or directory relative to the workspace root") }),
    policy: "allow",
    async run({ path }) {
      const parts = pathArg(path, "path");
      const shown = displayPath(parts);
      if (parts.length === 0) {
        const dir = await env.fs.openDir([], "path");
        const stat = await dir.handle.stat();
        return { path: shown, type: "directory", modified: stat.mtime.toISOString(), permissions: (stat.mode & 0o777).toString(8) };
      }
      const { dir, name } = await env.fs.openParent(parts, "path");
      const stat = await env.fs.lstatAt(dir, name).finally(() => dir.close());
      if (!stat) throw new ToolError(`path: ${shown} does not exist`);
      const type = stat.isFile() ? "file" : stat.isDirectory() ? "directory" : stat.isSymbolicLink() ? "symlink" : "other";
      return {
        path: shown,
        type,
        ...(type === "other" ? { kind: kindOf(stat) } : {}),
        ...(type === "file" ? { size: stat.size, mime_type: mimeTypeOf(name) } : {}),
        modified: stat.mtime.toISOString(),
        changed: stat.ctime.toISOString(),
        permissions: (stat.mode & 0o777).toString(8),
        ...(type === "file" && stat.nlink > 1 ? { hard_links: stat.nlink } : {}),
      };
    },
  });

/** export_file: a workspace file as an output artifact the user can download or another tool take (read-only). */
export const exportFile = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Makes a workspace file available to the user as a downloadable artifact (and to other tools by its artifact_id).",
    input: z.object({
      path: z.string().min(1).describe("File relative to the workspace root"),
      filename: z.string().min(1).max(200).optional().describe("Name of the download (default: the file's name)"),
    }),
    policy: "allow",
    async run({ path, filename }, ctx) {
      const parts = pathArg(path, "path");
      const { handle, stat } = await env.fs.openFile(parts, "path");
      try {
        if (stat.size > ctx.limits.maxArtifactBytes) {
          throw new ToolError(`path: ${displayPath(parts)} is ${formatBytes(stat.size)}, over the ${formatBytes(ctx.limits.maxArtifactBytes)} an artifact may hold; zip it or split it`);
        }
        const name = filename ?? parts.at(-1)!;
        const artifact = await ctx.artifacts.put(handle.createReadStream({ autoClose: false, start: 0 }), { filename: name, mimeType: mimeTypeOf(name) });
        return { path: displayPath(parts), size_bytes: stat.size, artifact };
      } finally {
        await handle.close();
      }
    },
  });
