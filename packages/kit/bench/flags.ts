// The node flags every bench server child starts with: the ONE place they are defined.
// They are meant to be the flags of the production start script (`node <FLAGS> dist/main.js`).
// BENCH_NODE_FLAGS (space separated; "none" for no flags) overrides them, to compare settings.

/**
 * Chosen by comparing settings with `BENCH_NODE_FLAGS=... pnpm bench`: 48/1 had the lowest peak RSS of
 * 48/1, 64/1, 48/2 and 48/4 with no measurable throughput difference between them. Dropping the
 * old-space limit is much faster per call but lets RSS grow to 270-380 MiB (V8 then grows the heap and
 * frees dead Buffers late), so some limit is needed in a 128 MB container.
 */
export const DEFAULT_NODE_FLAGS: readonly string[] = ["--max-old-space-size=48", "--max-semi-space-size=1"];

/**
 * The environment every capability image sets (see the Dockerfiles): glibc makes one malloc arena per
 * thread by default (V8's GC and compiler threads among them), each holding freed memory; two arenas
 * measured about 18 MiB less peak RSS with no throughput difference. BENCH_MALLOC_ARENA_MAX overrides it.
 */
export function productionEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  return { MALLOC_ARENA_MAX: env.BENCH_MALLOC_ARENA_MAX ?? "2" };
}

export function nodeFlags(env: Record<string, string | undefined> = process.env): readonly string[] {
  const override = env.BENCH_NODE_FLAGS?.trim();
  if (override === undefined || override === "") return DEFAULT_NODE_FLAGS;
  if (override === "none") return [];
  return override.split(/\s+/);
}
