import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * Tidies up and gives memory back while the process is quiet, in two steps after the last call or transfer
 * ended (or after warm-up), each once per stretch of work:
 *
 * - after `tidyMs`, a young-generation collection. A call that starts with the young generation part full
 *   stops for one when it fills, and after a model's turn of idle that costs 1.4-1.7 ms instead of 0.3 (on
 *   a VM, the first touch of each memory page after idle is slow, and a collection touches many). Done in
 *   the quiet instead, the next call allocates into an empty young generation: a letter's 0.3-0.4 MiB does
 *   not fill it, so the call runs without a stop.
 * - after `quietMs` the first time (start-up's garbage, warm-up's included), then after `laterQuietMs`, one
 *   memory-reducing collection (V8's last-resort one: it empties the young generation, compacts the old
 *   one and lets go of the pages and compiled code the work left behind).
 *
 * Why the second: V8 sizes its heap for the work it just did and keeps it, and nothing in an idle server
 * prompts it to shrink, while a capability spends most of its life idle. pdf idles 4 MiB lower this way
 * (72 → 68 MiB after a first letter, 106 → 93 after the bench's work). The collection takes ~25 ms of one
 * core (a call arriving meanwhile waits that long at most), and the call after it pays to optimise its code
 * again (any full collection clears what optimised code holds weakly): pdf's letter after 4 s idle took
 * 9.6-9.9 ms with it and 7.2-7.6 without, the kit bench's echo 2.3 times the CPU. So past the first, it
 * waits for a quiet longer than the calls of a model's turn are apart, and it runs only when V8's heap has
 * grown by `laterMinGrowthBytes` since the last one: a shared capability used now and then meets that quiet
 * before nearly every call, and after light work there is little to give back (pdf, letters 35 s apart:
 * each collection gave back 1.8 MiB and cost the next letter 6 ms, 18.5 ms against 12.7), while after
 * heavy work (reports) there is much.
 */
export interface IdleMemoryOptions {
  /** How long the process stays quiet before the young generation is collected (default 100 ms). */
  tidyMs?: number;
  /** What collects the young generation (default: V8's; `noCollection` for nothing). */
  tidy?: () => void;
  /** How long the process stays quiet before memory is first given back (default 2 s). */
  quietMs?: number;
  /** How long it stays quiet before memory is given back again, after the first time (default 30 s). */
  laterQuietMs?: number;
  /** What gives memory back (default: V8's memory-reducing collection; `noCollection` for none). */
  collect?: () => void;
  /** How much V8's heap must have grown since the last time for memory to be given back again (default 8 MiB). */
  laterMinGrowthBytes?: number;
  /** The size the growth is measured on (default: V8's heap, the memory it holds in RAM). */
  heapBytes?: () => number;
}

export class IdleMemory {
  readonly #tidy: () => void;
  readonly #tidyMs: number;
  readonly #collect: () => void;
  readonly #quietMs: number;
  readonly #laterQuietMs: number;
  readonly #isQuiet: () => boolean;
  #timer: NodeJS.Timeout | undefined;
  /** When the timer fires, on performance.now()'s clock. */
  #due = 0;
  /** When the work last stopped, on performance.now()'s clock. */
  #quietSince = 0;
  /** Whether work was done since the last collection (else there is nothing new to give back). */
  #worked = false;
  /** Whether the young generation was collected since the work last stopped. */
  #tidied = true;
  /** Whether memory was given back once already (later times wait `laterQuietMs`). */
  #collected = false;
  readonly #laterMinGrowthBytes: number;
  readonly #heapBytes: () => number;
  /** The heap's size right after memory was last given back. */
  #heapAfterCollect = 0;
  #stopped = false;

  constructor(isQuiet: () => boolean, options: IdleMemoryOptions = {}) {
    this.#isQuiet = isQuiet;
    this.#quietMs = options.quietMs ?? 2_000;
    this.#laterQuietMs = options.laterQuietMs ?? 30_000;
    this.#collect = options.collect ?? reducingCollection;
    this.#laterMinGrowthBytes = options.laterMinGrowthBytes ?? 8 * 1024 * 1024;
    this.#heapBytes = options.heapBytes ?? heapInRam;
    this.#tidyMs = options.tidyMs ?? 100;
    // A tidy no sooner than the full collection would only come before it: that one empties the young generation too.
    this.#tidy = this.#tidyMs < this.#quietMs ? (options.tidy ?? youngCollection) : noCollection;
  }

  /** Whether it collects at all (not when given `noCollection` for both steps). */
  get enabled(): boolean {
    return this.#collect !== noCollection || this.#tidy !== noCollection;
  }

  /** Work just stopped (the last call or transfer ended, or warm-up did). */
  quiet(): void {
    if (!this.enabled || this.#stopped) return;
    this.#worked = true;
    this.#tidied = this.#tidy === noCollection;
    this.#quietSince = performance.now();
    // One timer at a time, pushed back when it fires early: cheaper than clearing and arming one per call.
    // Armed anew only when due too late (for the full collection, while a tidy is now wanted sooner).
    const due = this.#quietSince + (this.#tidied ? this.#collectAfterMs : this.#tidyMs);
    if (this.#timer && this.#due <= due + 1) return;
    clearTimeout(this.#timer);
    this.#arm(due - this.#quietSince);
  }

  /** Stops collecting for good (shutdown): the calls it cancels end quiet, and arm nothing. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  readonly #fire = (): void => {
    this.#timer = undefined;
    // Busy again: the call or transfer running now says quiet() when it ends.
    if (!this.#worked || !this.#isQuiet()) return;
    const quietFor = performance.now() - this.#quietSince;
    if (!this.#tidied) {
      if (this.#later(this.#tidyMs - quietFor)) return;
      this.#tidied = true;
      this.#tidy();
    }
    if (this.#collect === noCollection) {
      this.#worked = false;
      return;
    }
    if (this.#later(this.#collectAfterMs - quietFor)) return;
    this.#worked = false;
    if (this.#collected && this.#heapBytes() - this.#heapAfterCollect < this.#laterMinGrowthBytes) return;
    this.#collected = true;
    this.#collect();
    this.#heapAfterCollect = this.#heapBytes();
  };

  /** The quiet wanted before memory is given back this time. */
  get #collectAfterMs(): number {
    return this.#collected ? this.#laterQuietMs : this.#quietMs;
  }

  /** Arms the timer for `wait` ms when that is more than a millisecond, saying whether it did. */
  #later(wait: number): boolean {
    if (wait <= 1) return false;
    this.#arm(wait);
    return true;
  }

  #arm(wait: number): void {
    this.#due = performance.now() + wait;
    this.#timer = setTimeout(this.#fire, Math.ceil(wait)).unref();
  }
}

/** V8's heap as it sits in RAM (its pages' resident bytes). */
function heapInRam(): number {
  return getHeapStatistics().total_physical_size;
}

type ExposedGc = (options: { type: "major" | "minor"; execution: "sync"; flavor?: "last-resort" }) => void;
let exposedGc: ExposedGc | undefined;

/**
 * V8's memory-reducing full collection. Its `gc` is exposed here, on the first collection, for one new
 * context, rather than by `node --expose-gc`: a V8 flag that differs from Node's build (that one,
 * `--max-opt`, ...) makes V8 refuse the compiled code Node ships for its own modules, so every start would
 * compile them again (~20 ms for http2 and its kin). The flag is set back at once, so modules loaded
 * later keep that code too.
 */
function reducingCollection(): void {
  gc()({ type: "major", execution: "sync", flavor: "last-resort" });
}

/** V8's young-generation collection (a scavenge), by the same `gc` as {@link reducingCollection}. */
function youngCollection(): void {
  gc()({ type: "minor", execution: "sync" });
}

function gc(): ExposedGc {
  if (!exposedGc) {
    exposedGc = (globalThis as { gc?: ExposedGc }).gc;
    if (!exposedGc) {
      setFlagsFromString("--expose-gc");
      exposedGc = runInNewContext("gc") as ExposedGc;
      setFlagsFromString("--no-expose-gc");
    }
  }
  return exposedGc;
}

/** A collector that collects nothing (IdleMemoryOptions.tidy, IdleMemoryOptions.collect). */
export function noCollection(): void {}
