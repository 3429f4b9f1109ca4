// Everything exported here is public: the generated selu.capability.v1 contract for @grpc/grpc-js.
export {
  CapabilityService,
  CapabilityClient,
  InvokeRequest,
  InvokeResponse,
  InvokeChunk,
  HealthRequest,
  HealthResponse,
  UploadInputArtifactChunk,
  UploadInputArtifactResponse,
  DownloadOutputArtifactRequest,
  ArtifactChunk,
} from "./gen/capability/v1/capability.gen.js";
export type { CapabilityServer } from "./gen/capability/v1/capability.gen.js";

/** Fully qualified service name, as the orchestrator dials it. */
export const CAPABILITY_SERVICE_NAME = "selu.capability.v1.Capability";
