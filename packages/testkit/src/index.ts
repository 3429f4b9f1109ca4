// The public API of @selu-catalogue/testkit: what tests use to meet a capability as Selu would.
export * from "./orchestrator/index.js";
export * from "./process/index.js";
export * from "./proxy/index.js";
export * from "./tls/index.js";
export * from "./container/index.js";
