// The Vitest settings every package shares: unit tests beside the code (src/) and end-to-end tests in
// test/, with timeouts sized for the real servers and processes the tests start. A package passes only
// what differs (e.g. one file at a time where tests hold capabilities under memory limits).
import { defineConfig } from "vitest/config";

/**
 * @param {import("vitest/node").InlineConfig} [overrides] settings that differ from the shared ones
 * @example
 * // vitest.config.ts
 * import { catalogueTests } from "@selu-catalogue/tsconfig/vitest.js";
 * export default catalogueTests();
 */
export function catalogueTests(overrides = {}) {
  return defineConfig({
    test: { include: ["src/**/*.test.ts", "test/**/*.test.ts"], testTimeout: 20_000, hookTimeout: 20_000, ...overrides },
  });
}
