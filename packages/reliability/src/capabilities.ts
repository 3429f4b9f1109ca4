import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadManifest, type Manifest } from "@selu-catalogue/manifest";

/** One capability of the catalogue, as the suite meets it. */
export interface CapabilityUnderTest {
  /** `capabilities/<dir>`, absolute. */
  dir: string;
  id: string;
  manifest: Manifest;
  /** resources.max_memory_mb: the container's memory limit. */
  memoryMiB: number;
  /** sharing.max_concurrent for shared containers, else undefined. */
  maxConcurrent: number | undefined;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * Every capability of the catalogue: each `capabilities/<dir>/manifest.yaml`. A new capability joins
 * every check of the suite by existing; nothing here names one (its built `start` script must exist,
 * which `./dev test` builds first).
 */
export function discoverCapabilities(): CapabilityUnderTest[] {
  const found: CapabilityUnderTest[] = [];
  const dir = join(root, "capabilities");
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name, "manifest.yaml");
    if (!existsSync(file)) continue;
    const { manifest, problems } = loadManifest(file);
    if (!manifest) throw new Error(`${file}: ${JSON.stringify(problems)}`);
    const sharing = (manifest as { sharing?: { mode?: string; max_concurrent?: number } }).sharing;
    found.push({
      dir: join(dir, name),
      id: manifest.id,
      manifest,
      memoryMiB: manifest.resources.max_memory_mb,
      maxConcurrent: sharing?.mode === "shared" ? sharing.max_concurrent : undefined,
    });
  }
  return found;
}
