import { ToolError } from "../errors.js";
import { newArtifactId } from "./artifact-id.js";
import { formatBytes } from "../format.js";
import { ownMemory } from "../own-memory.js";

/** Whether an artifact came in (UploadInputArtifact) or goes out (a tool's result). */
export type ArtifactKind = "input" | "output";

export interface StoredArtifact {
  readonly id: string;
  readonly kind: ArtifactKind;
  readonly filename: string;
  readonly mimeType: string;
  readonly size: number;
  /** The content as received, in chunks (never concatenated, to avoid a second copy). */
  readonly chunks: readonly Buffer[];
  readonly expiresAt: number;
}

/** What the store is told about an artifact it begins to receive. */
export interface ArtifactMeta {
  kind: ArtifactKind;
  filename: string;
  mimeType: string;
}

export interface ArtifactStoreOptions {
  maxArtifactBytes: number;
  budgetBytes: number;
  ttlMs: number;
  /**
   * How long a new artifact nobody has used yet is evicted only after every other (default 60 s): an
   * upload the orchestrator is about to attach to a call, or an output whose download has not begun yet.
   */
  unusedGraceMs?: number;
  now?: () => number;
}

/** How many evicted ids are remembered, so a late reader is told why its file is gone. */
const REMEMBERED_EVICTIONS = 256;

/**
 * In-memory artifacts with three bounds, so nothing grows without limit: a per-artifact cap, a total
 * budget and a TTL. Past the budget, artifacts are evicted in the order they are least missed: expired
 * ones, then those already used (an input attached to a call that ended or read it, an output whose
 * download began), then unused ones older than the grace period, then new unused ones, least recently
 * used first within each. An artifact pinned by a running call is never evicted: when only those are
 * left a new file is refused in words instead. Evicted ids are remembered for a while, so whoever asks
 * for one later is told it was dropped to make room.
 * Transfers in progress reserve their room chunk by chunk, within three quarters of the budget (see
 * `reserve`). Ids are 128-bit random: DownloadOutputArtifact carries no session, so the id is the only
 * secret.
 */
export class ArtifactStore {
  // Map order is recency order: touched entries are re-inserted at the end.
  readonly #items = new Map<string, StoredArtifact>();
  // The same entries in the order they were stored, which is the order they expire in (one TTL for all):
  // eviction finds the expired ones at the front without walking the others.
  readonly #byAge = new Map<string, StoredArtifact>();
  // Calls running with an artifact among their attachments, by id (a count: ids may be passed again).
  readonly #pins = new Map<string, number>();
  // The used entries, least recently used (touched or marked used) first: eviction takes them from the
  // front, so a full store of used files costs a put the few it evicts, not a walk over thousands.
  readonly #used = new Set<string>();
  // Ids evicted lately, oldest first, so `wasEvicted` can tell a late reader what happened.
  readonly #evicted = new Set<string>();
  #heldBytes = 0;
  #reserved = 0;
  readonly #opts: ArtifactStoreOptions;
  readonly #now: () => number;

  constructor(options: ArtifactStoreOptions) {
    this.#opts = options;
    this.#now = options.now ?? Date.now;
  }

  get maxArtifactBytes(): number {
    return this.#opts.maxArtifactBytes;
  }

  /** Bytes held, and artifacts held, for health and tests. */
  stats(): { bytes: number; count: number; reservedBytes: number } {
    return { bytes: this.#heldBytes, count: this.#items.size, reservedBytes: this.#reserved };
  }

  /**
   * Starts receiving an artifact. The writer enforces the cap on every chunk, so an oversized
   * artifact is refused while it streams in, not after it was buffered whole.
   */
  begin(meta: ArtifactMeta): ArtifactWriter {
    return new ArtifactWriter(this, meta);
  }

  /** Stores a complete artifact (its bytes already in memory). */
  put(bytes: Uint8Array, meta: ArtifactMeta): StoredArtifact {
    const writer = this.begin(meta);
    writer.write(bytes);
    return writer.finish();
  }

  /** The artifact with this id if present and not expired; refreshes its recency. */
  get(id: string): StoredArtifact | undefined {
    const item = this.#items.get(id);
    if (!item) return undefined;
    if (item.expiresAt <= this.#now() && !this.#pins.has(id)) {
      this.#remove(id);
      return undefined;
    }
    this.#items.delete(id);
    this.#items.set(id, item);
    if (this.#used.delete(id)) this.#used.add(id);
    return item;
  }

  delete(id: string): boolean {
    return this.#remove(id);
  }

  /**
   * Keeps these artifacts (a call's attachments) from eviction and expiry until `unpin`: in a burst, other
   * calls' outputs would otherwise evict an input its call has not read yet. Unknown ids are ignored.
   */
  pin(ids: readonly string[]): void {
    for (const id of ids) if (this.#items.has(id)) this.#pins.set(id, (this.#pins.get(id) ?? 0) + 1);
  }

  /** Ends a `pin`. The call is over, so its attachments count as used, read or not (a retry uploads anew). */
  unpin(ids: readonly string[]): void {
    for (const id of ids) {
      const count = this.#pins.get(id);
      if (count === undefined) continue;
      if (count > 1) this.#pins.set(id, count - 1);
      else this.#pins.delete(id);
      this.markUsed(id);
    }
  }

  /** Whether this id was evicted lately to make room (not expired, not deleted, not unknown). */
  wasEvicted(id: string): boolean {
    return this.#evicted.has(id);
  }

  /** Marks an artifact as used (read by its call, or asked for by a download): among the first to be evicted. */
  markUsed(id: string): void {
    if (!this.#items.has(id)) return;
    this.#used.delete(id);
    this.#used.add(id);
  }

  /**
   * @internal Reserves room for `bytes` more of a transfer, evicting expired then least recently used
   * artifacts. Transfers in progress hold at most three quarters of the budget together, so however many
   * never end they evict stored files only within that share and never take the whole store (issue 10,
   * item 5); past it a transfer is refused until others finish or are cut for stalling.
   */
  reserve(bytes: number): void {
    const budget = this.#opts.budgetBytes;
    const share = Math.max(Math.floor((budget * 3) / 4), this.#opts.maxArtifactBytes);
    if (this.#reserved + bytes > share) {
      throw new ToolError(`the capability's artifact memory (${formatBytes(budget)}) is taken by transfers in progress; try again shortly`);
    }
    if (this.#heldBytes + this.#reserved + bytes > budget) this.#evictFor(this.#heldBytes + this.#reserved + bytes - budget);
    if (this.#heldBytes + this.#reserved + bytes > budget) {
      throw new ToolError(`the capability's artifact memory (${formatBytes(budget)}) is full with the files of calls in progress; send fewer or smaller files at once, or try again shortly`);
    }
    this.#reserved += bytes;
  }

  /** @internal Gives back a reservation (the transfer failed or finished). */
  release(bytes: number): void {
    this.#reserved -= bytes;
  }

  /** @internal Adds a finished artifact whose bytes were reserved. */
  commit(item: Omit<StoredArtifact, "id" | "expiresAt">): StoredArtifact {
    const stored: StoredArtifact = {
      id: newArtifactId(),
      kind: item.kind,
      filename: item.filename,
      mimeType: item.mimeType,
      size: item.size,
      chunks: item.chunks,
      expiresAt: this.#now() + this.#opts.ttlMs,
    };
    this.release(item.size);
    this.#heldBytes += item.size;
    this.#items.set(stored.id, stored);
    this.#byAge.set(stored.id, stored);
    return stored;
  }

  /**
   * Evicts at least `excess` bytes of unpinned artifacts if it can, in the order of `#evictionRank`:
   * expired ones (from the front of `#byAge`, up to the first that is not), used ones (from the front of
   * `#used`), then the unused ones in recency order, walking the rest only when no used one is left.
   */
  #evictFor(excess: number): void {
    const goal = this.#heldBytes - excess;
    const now = this.#now();
    for (const [id, item] of this.#byAge) {
      if (this.#heldBytes <= goal || item.expiresAt > now) break;
      if (!this.#pins.has(id)) this.#remove(id);
    }
    for (const id of this.#used) {
      if (this.#heldBytes <= goal) return;
      if (this.#pins.has(id)) continue;
      this.#remove(id);
      this.#remember(id);
    }
    for (let pass = 2; pass < 4; pass++) {
      for (const [id, item] of this.#items) {
        if (this.#heldBytes <= goal) return;
        if (this.#pins.has(id)) continue;
        // Ranks 2 and 3 only: what is expired or used and not pinned went in the two loops above.
        if (this.#evictionRank(id, item, now) > pass) continue;
        this.#remove(id);
        this.#remember(id);
      }
    }
  }

  /** 0: expired; 1: used; 2: unused past the grace period; 3: new and unused. */
  #evictionRank(id: string, item: StoredArtifact, now: number): number {
    if (item.expiresAt <= now) return 0;
    if (this.#used.has(id)) return 1;
    // Its age: every artifact is stored for the same TTL.
    const age = now - (item.expiresAt - this.#opts.ttlMs);
    return age >= (this.#opts.unusedGraceMs ?? 60_000) ? 2 : 3;
  }

  #remember(id: string): void {
    this.#evicted.add(id);
    if (this.#evicted.size > REMEMBERED_EVICTIONS) this.#evicted.delete(this.#evicted.values().next().value as string);
  }

  #remove(id: string): boolean {
    const item = this.#items.get(id);
    if (!item) return false;
    this.#items.delete(id);
    this.#byAge.delete(id);
    this.#used.delete(id);
    this.#heldBytes -= item.size;
    return true;
  }
}

/** Receives one artifact chunk by chunk within the store's bounds. */
export class ArtifactWriter {
  readonly #store: ArtifactStore;
  readonly #meta: ArtifactMeta;
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #open = true;

  constructor(store: ArtifactStore, meta: ArtifactMeta) {
    this.#store = store;
    this.#meta = meta;
  }

  get size(): number {
    return this.#size;
  }

  /** Adds a chunk; throws a ToolError (and drops what was received) once the cap is passed. */
  write(chunk: Uint8Array): void {
    if (!this.#open) throw new Error("artifact writer is closed");
    if (chunk.byteLength === 0) return;
    const max = this.#store.maxArtifactBytes;
    if (this.#size + chunk.byteLength > max) {
      this.abort();
      throw new ToolError(`${describe(this.#meta)} is larger than this capability's limit of ${formatBytes(max)} per file`);
    }
    try {
      this.#store.reserve(chunk.byteLength);
    } catch (err) {
      this.abort();
      throw err;
    }
    this.#size += chunk.byteLength;
    this.#chunks.push(ownMemory(chunk));
  }

  /** Stores what was written and returns it with its new id. */
  finish(): StoredArtifact {
    if (!this.#open) throw new Error("artifact writer is closed");
    this.#open = false;
    const { kind, filename, mimeType } = this.#meta;
    return this.#store.commit({ kind, filename, mimeType, size: this.#size, chunks: this.#chunks });
  }

  /** Drops what was written and gives its room back. */
  abort(): void {
    if (!this.#open) return;
    this.#open = false;
    this.#store.release(this.#size);
    this.#chunks.length = 0;
  }
}

function describe(meta: { filename: string }): string {
  return meta.filename ? `the file ${JSON.stringify(meta.filename)}` : "the file";
}
