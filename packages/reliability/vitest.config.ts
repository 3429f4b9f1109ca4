import { catalogueTests } from "@selu-catalogue/tsconfig/vitest.js";

// One file at a time: each starts capabilities under memory limits, and the machine is shared.
export default catalogueTests({ testTimeout: 120_000, hookTimeout: 60_000, fileParallelism: false });
