import { catalogueTests } from "@selu-catalogue/tsconfig/vitest.js";

export default catalogueTests();
