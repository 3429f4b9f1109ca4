import { catalogueTests } from "@selu-catalogue/tsconfig/vitest.js";

export default catalogueTests({ include: ["test/**/*.test.ts"] });
