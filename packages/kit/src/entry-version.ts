import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * The version of the package whose entrypoint is running: the nearest package.json above the entry
 * script (`dist/bundle/main.js` -> the capability's package.json), read once at start-up for the logs.
 * Undefined when there is none (an image that ships no package.json).
 */
export function entryPackageVersion(entry: string | undefined = process.argv[1]): string | undefined {
  if (!entry) return undefined;
  let dir = dirname(entry);
  for (let level = 0; level < 4; level++, dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (typeof pkg.version === "string" && typeof pkg.name === "string") return pkg.version;
    } catch {
      // No (readable) package.json at this level: look further up.
    }
  }
  return undefined;
}
