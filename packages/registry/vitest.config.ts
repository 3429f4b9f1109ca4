import { catalogueTests } from "@selu-catalogue/tsconfig/vitest.js";

// One file at a time: the scaffold test runs a capability's conformance suite, whose readiness bound
// (2 s) should not compete with the install test's capability process for the CPU.
export default catalogueTests({ testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false });
