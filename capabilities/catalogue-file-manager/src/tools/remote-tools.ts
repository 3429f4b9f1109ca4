import { attachments, ToolError, formatBytes, type ToolContext } from "@selu-catalogue/kit";
import { z } from "zod";
import type { FileManagerCredentials } from "../credentials.js";
import { DavClient } from "../webdav/client.js";
import { writeAtomic } from "../workspace/atomic-write.js";
import { displayPath } from "../workspace/relative-path.js";
import { mimeTypeOf } from "./mime.js";
import { budgetFor, countWithin, pathArg, type FmTool, type ToolEnv } from "./shared.js";

function dav(ctx: ToolContext<FileManagerCredentials>): DavClient {
  const { WEBDAV_URL, WEBDAV_USERNAME, WEBDAV_PASSWORD } = ctx.credentials;
  if (!WEBDAV_URL) throw new ToolError("no remote store is configured (an administrator sets WEBDAV_URL, WEBDAV_USERNAME and WEBDAV_PASSWORD)");
  return new DavClient({ url: WEBDAV_URL, username: WEBDAV_USERNAME, password: WEBDAV_PASSWORD }, ctx.http);
}

/** remote_list: a folder of the WebDAV store (read-only). */
export const remoteList = (tool: FmTool, _env: ToolEnv) =>
  tool({
    description: "Lists a folder of the remote file store (WebDAV) with type, size and modification time. Paths are relative to the configured folder.",
    input: z.object({
      path: z.string().default("/").describe('Remote folder, e.g. "/" or "Documents/2026"'),
      offset: z.number().int().min(0).default(0).describe("Entries to skip (from next_offset)"),
    }),
    policy: "allow",
    async run({ path, offset }, ctx) {
      const entries = (await dav(ctx).list(path, ctx.signal))
        .map((e) => ({
          name: e.href.replace(/\/$/, "").split("/").at(-1) ?? "",
          type: e.directory ? "directory" : "file",
          ...(e.directory || e.size === null ? {} : { size: e.size }),
          ...(e.modified ? { modified: e.modified } : {}),
        }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const page = entries.slice(offset);
      const fit = countWithin(page);
      return { path, total: entries.length, offset, next_offset: offset + fit < entries.length ? offset + fit : null, entries: page.slice(0, fit) };
    },
  });

/** remote_download: a remote file into the workspace, or as an artifact (asks first). */
export const remoteDownload = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Downloads a file from the remote store (WebDAV) into the workspace (destination), or as an artifact for the user when there is no destination.",
    input: z.object({
      remote_path: z.string().min(1).describe("Remote file, relative to the configured folder"),
      destination: z.string().min(1).optional().describe("Where to save it in the workspace"),
      overwrite: z.boolean().default(false).describe("Replace an existing workspace file"),
    }),
    policy: "ask",
    async run({ remote_path, destination, overwrite }, ctx) {
      const bytes = await dav(ctx).download(remote_path, ctx.signal);
      const name = remote_path.split("/").filter(Boolean).at(-1) ?? "download.bin";
      if (destination) {
        const parts = pathArg(destination, "destination");
        const written = await writeAtomic(env.fs, parts, bytes, budgetFor(env), "destination", { overwrite, createParents: true }, ctx.signal);
        return { remote_path, path: displayPath(parts), size_bytes: written };
      }
      const artifact = await ctx.artifacts.put(bytes, { filename: name, mimeType: mimeTypeOf(name) });
      return { remote_path, size_bytes: bytes.length, artifact };
    },
  });

/** remote_upload: a workspace file or an attachment to the remote store (asks first). */
export const remoteUpload = (tool: FmTool, env: ToolEnv) =>
  tool({
    description: "Uploads a workspace file (source) or an attached file (attachments) to the remote store (WebDAV). An existing remote file is replaced only with overwrite: true.",
    input: z.object({
      remote_path: z.string().min(1).describe("Remote file to create, relative to the configured folder"),
      source: z.string().min(1).optional().describe("A workspace file to upload"),
      attachments: attachments({ description: "A file to upload instead of source", min: 1, max: 1 }).optional(),
      overwrite: z.boolean().default(false).describe("Replace an existing remote file"),
    }),
    policy: "ask",
    async run({ remote_path, source, attachments: files, overwrite }, ctx) {
      if ((source === undefined) === (files === undefined)) throw new ToolError("source: give either source (a workspace file) or attachments (an attached file), not both or neither");
      const max = ctx.limits.maxArtifactBytes;
      let body: Buffer;
      if (files) body = ctx.artifacts.read(files[0]!, "attachments[0]").bytes();
      else {
        const { handle, stat } = await env.fs.openFile(pathArg(source, "source"), "source");
        try {
          if (stat.size > max) throw new ToolError(`source: ${source} is ${formatBytes(stat.size)}; uploads are limited to ${formatBytes(max)}`);
          body = await handle.readFile();
        } finally {
          await handle.close();
        }
      }
      const created = await dav(ctx).upload(remote_path, body, overwrite, ctx.signal);
      return { remote_path, size_bytes: body.length, created };
    },
  });
