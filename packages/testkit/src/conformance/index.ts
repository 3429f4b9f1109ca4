export { checkDockerfile, imageEnv } from "./dockerfile.js";
export { conformance } from "./suite.js";
export type { DockerfileExpectations } from "./dockerfile.js";
export type { ConformanceOptions } from "./suite.js";
