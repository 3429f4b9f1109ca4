export { startCapabilityProcess } from "./capability-process.js";
export { freePort } from "./free-port.js";
export type { CapabilityProcess, StartOptions } from "./capability-process.js";
export { processTree, serverProcess } from "./process-tree.js";
