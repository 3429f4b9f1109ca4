import { randomUUID } from "node:crypto";

/** An artifact as the orchestrator keeps it: per user, in memory, for six hours. */
export interface VaultArtifact {
  readonly artifactId: string;
  readonly owner: string;
  readonly filename: string;
  readonly mimeType: string;
  readonly bytes: Buffer;
  readonly storedAt: number;
}

/** Selu keeps downloaded artifacts in memory for 6 h, owned by the user whose call produced them. */
export const ARTIFACT_TTL_MS = 6 * 60 * 60 * 1000;

/** The orchestrator's artifact memory: ids are UUIDs, lookups check owner and expiry like Selu's. */
export class ArtifactVault {
  readonly #items = new Map<string, VaultArtifact>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  store(owner: string, filename: string, mimeType: string, bytes: Buffer): VaultArtifact {
    const item = { artifactId: randomUUID(), owner, filename, mimeType, bytes, storedAt: this.#now() };
    this.#items.set(item.artifactId, item);
    return item;
  }

  /** The artifact, or the error Selu would give: unknown, someone else's, or expired. */
  take(owner: string, artifactId: string): VaultArtifact | { error: string } {
    const item = this.#items.get(artifactId);
    if (!item || item.owner !== owner) return { error: `artifact ${artifactId} not found` };
    if (this.#now() - item.storedAt > ARTIFACT_TTL_MS) {
      this.#items.delete(artifactId);
      return { error: `artifact ${artifactId} has expired` };
    }
    return item;
  }

  get(artifactId: string): VaultArtifact | undefined {
    return this.#items.get(artifactId);
  }

  all(): VaultArtifact[] {
    return [...this.#items.values()];
  }
}
