import { createRequire } from "node:module";
import type { Server } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { CAPABILITY_SERVICE_NAME } from "@selu-catalogue/proto";
import { HealthImplementation, protoPath as healthProtoPath } from "grpc-health-check";

const require = createRequire(import.meta.url);

/** The standard grpc.health.v1 service, so generic probes (grpc_health_probe, grpcurl) work too. */
export function addHealthService(server: Server): HealthImplementation {
  const health = new HealthImplementation({ "": "NOT_SERVING", [CAPABILITY_SERVICE_NAME]: "NOT_SERVING" });
  health.addToServer(server);
  return health;
}

export function setServing(health: HealthImplementation, serving: boolean): void {
  const status = serving ? "SERVING" : "NOT_SERVING";
  health.setStatus("", status);
  health.setStatus(CAPABILITY_SERVICE_NAME, status);
}

/** Server reflection (v1 and v1alpha) for the capability and health services: grpcurl needs no .proto. */
export function addReflectionService(server: Server): void {
  const capabilityProto = require.resolve("@selu-catalogue/proto/capability.proto");
  const includeDir = capabilityProto.slice(0, -"capability/v1/capability.proto".length);
  const definition = loadSync([capabilityProto, healthProtoPath], {
    includeDirs: [includeDir],
    keepCase: true,
  });
  new ReflectionService(definition).addToServer(server);
}
