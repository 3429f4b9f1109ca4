export { hasBubblewrap, sandboxCommand } from "./sandbox.js";
export { peakRssMiB } from "./peak-rss.js";
export type { ContainerLimits } from "./sandbox.js";
