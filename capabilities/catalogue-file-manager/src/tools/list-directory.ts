import { readdir, lstat } from "node:fs/promises";
import { z } from "zod";
import { displayPath } from "../workspace/relative-path.js";
import { at } from "../workspace/secure-fs.js";
import { kindOfDirent } from "../workspace/walk.js";
import { countWithin, pathArg, type FmTool, type ToolEnv } from "./shared.js";

const STAT_BATCH = 64;

/** list_directory: one directory's entries with type, size and time, sorted and paged (read-only). */
export const listDirectory = (tool: FmTool, env: ToolEnv) =>
  tool({
    description:
      "Lists the entries of a workspace directory with type (file, directory, symlink, other), size in bytes and " +
      "modification time, sorted by name, size or modified time. Long listings are paged: pass next_offset as offset.",
    input: z.object({
      path: z.string().default(".").describe('Directory relative to the workspace root; "." is the root'),
      sort: z.enum(["name", "size", "modified"]).default("name").describe("Sort key"),
      descending: z.boolean().default(false).describe("Largest, newest or Z first"),
      offset: z.number().int().min(0).default(0).describe("Entries to skip (from next_offset)"),
      limit: z.number().int().min(1).max(1000).default(200).describe("Entries to return at most"),
    }),
    policy: "allow",
    async run({ path, sort, descending, offset, limit }, ctx) {
      const parts = pathArg(path, "path");
      const dir = await env.fs.openDir(parts, "path");
      try {
        const dirents = await readdir(`/proc/self/fd/${dir.handle.fd}`, { withFileTypes: true });
        const rows = dirents.map((d) => ({ name: d.name, type: kindOfDirent(d), size: 0, modified: 0 }));
        // Sorting by name needs no stat, so only the page is stat'ed; other keys stat every entry.
        const statAll = sort !== "name";
        const stat = async (list: typeof rows) => {
          for (let i = 0; i < list.length; i += STAT_BATCH) {
            ctx.signal.throwIfAborted();
            await Promise.all(
              list.slice(i, i + STAT_BATCH).map(async (row) => {
                const s = await lstat(at(dir.handle, row.name)).catch(() => undefined);
                if (s) Object.assign(row, { size: s.isFile() ? s.size : 0, modified: s.mtimeMs });
              }),
            );
          }
        };
        if (statAll) await stat(rows);
        const key = sort === "name" ? null : sort;
        rows.sort((a, b) => (key ? a[key] - b[key] : 0) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        if (descending) rows.reverse();
        const page = rows.slice(offset, offset + limit);
        if (!statAll) await stat(page);
        const entries = page.map((r) => ({ name: r.name, type: r.type, ...(r.type === "file" ? { size: r.size } : {}), modified: new Date(r.modified).toISOString() }));
        const fit = countWithin(entries);
        const next = offset + fit < rows.length ? offset + fit : null;
        return { path: displayPath(parts), total: rows.length, offset, next_offset: next, entries: entries.slice(0, fit) };
      } finally {
        await dir.close();
      }
    },
  });
