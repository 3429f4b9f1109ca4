import { catalogueTests } from "@selu-catalogue/tsconfig/vitest.js";

export default catalogueTests({ include: ["*.test.ts", "src/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 60_000 });
