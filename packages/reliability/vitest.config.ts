import { defineConfig } from "vitest/config";

// One file at a time: each starts capabilities under memory limits, and the machine is shared.
export default defineConfig({
  test: { include: ["test/**/*.test.ts", "src/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 60_000, fileParallelism: false },
});
