export { startCapabilityProcess } from "./capability-process.js";
export { capabilityStarter } from "./capability-starter.js";
export { containerEnv } from "./container-env.js";
export { freePort } from "./free-port.js";
export type { CapabilityProcess, StartOptions } from "./capability-process.js";
export type { CapabilityStarter } from "./capability-starter.js";
export type { SeluContainerIdentity } from "./container-env.js";
export { cpuTimeMs, processTree, serverProcess } from "./process-tree.js";
