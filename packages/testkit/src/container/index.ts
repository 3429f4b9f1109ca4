export { hasBubblewrap, sandboxCommand } from "./sandbox.js";
export { peakRssMiB } from "./peak-rss.js";
export { tmpUsageMiB } from "./tmp-usage.js";
export { createContainerCgroup, SELU_DEFAULT_MEMORY_MB, SELU_DEFAULT_PIDS_LIMIT } from "./cgroup.js";
export { hasMemoryCgroup, memoryLimit } from "./memory-limit.js";
export type { ContainerLimits } from "./sandbox.js";
export type { ContainerCgroup } from "./cgroup.js";
export type { MemoryLimit } from "./memory-limit.js";
