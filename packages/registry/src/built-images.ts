import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Where `./dev images` (scripts/images/run.mjs) records each image it built, relative to the repository root. */
export const BUILD_RECORDS = join(".cache", "images", "built");

/** `.cache/images/built/<id>.json`: one image `./dev images` built, and the podman storage that holds it. */
export interface ImageBuildRecord {
  /** The capability id. */
  id: string;
  /** The manifest's `image` when it was built: the reference Selu pulls and runs, tagged on the build. */
  image: string;
  imageId: string;
  /** podman's `--root` and `--storage-driver` for that storage. */
  storage: string;
  driver: string;
  builtAt: string;
}

/** A built image as podman reports it. */
export interface InspectedImage {
  id: string;
  labels: Record<string, string>;
}

/** The OCI labels an image should carry, by key (`org.opencontainers.image.<key>`), and the version it announces. */
export interface ExpectedImage {
  image: string;
  version: string;
  labels: Record<string, string>;
}

/** The build records under `root`, by capability id (empty when `./dev images` never ran in this checkout). */
export function readBuildRecords(root: string): Map<string, ImageBuildRecord> {
  const dir = join(root, BUILD_RECORDS);
  const records = new Map<string, ImageBuildRecord>();
  if (!existsSync(dir)) return records;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
    const record = JSON.parse(readFileSync(join(dir, name), "utf8")) as ImageBuildRecord;
    records.set(record.id, record);
  }
  return records;
}

/**
 * Resolves `reference` exactly as written in the podman storage the record names, as Selu's runner
 * resolves a manifest's image among the pulled ones; undefined when no image has that reference.
 *
 * @throws Error when podman is missing or the storage can't be read.
 */
export function inspectImage(record: Pick<ImageBuildRecord, "storage" | "driver">, reference: string): InspectedImage | undefined {
  const podman = ["--root", record.storage, "--storage-driver", record.driver];
  try {
    execFileSync("podman", [...podman, "image", "exists", reference], { stdio: "ignore" });
  } catch (error) {
    // `image exists` exits 1 for "no such image"; anything else (podman missing, storage locked) is a fault.
    if ((error as { status?: number }).status === 1) return undefined;
    throw new Error(`podman ${podman.join(" ")} image exists ${reference}: ${(error as Error).message}`, { cause: error });
  }
  const [inspected] = JSON.parse(execFileSync("podman", [...podman, "image", "inspect", reference], { encoding: "utf8" })) as {
    Id: string;
    Labels?: Record<string, string> | null;
    Config?: { Labels?: Record<string, string> | null };
  }[];
  return { id: inspected!.Id, labels: inspected!.Config?.Labels ?? inspected!.Labels ?? {} };
}

/**
 * What is wrong with the image built for `expected.image`: not built, or built from other sources (its
 * OCI labels differ from the ones its Dockerfile sets now, e.g. an older version). Empty when it matches.
 */
export function builtImageProblems(found: InspectedImage | undefined, expected: ExpectedImage): string[] {
  if (!found) return [`${expected.image}: no image with this reference was built (./dev images tags each build with its manifest's image)`];
  const problems: string[] = [];
  const label = (key: string) => found.labels[`org.opencontainers.image.${key}`];
  if (label("version") !== expected.version) {
    problems.push(`${expected.image}: label org.opencontainers.image.version is ${JSON.stringify(label("version"))}; the marketplace announces ${expected.version}`);
  }
  for (const [key, value] of Object.entries(expected.labels)) {
    if (key !== "version" && label(key) !== value) {
      problems.push(`${expected.image}: label org.opencontainers.image.${key} is ${JSON.stringify(label(key))}; its Dockerfile sets ${JSON.stringify(value)}`);
    }
  }
  return problems;
}
