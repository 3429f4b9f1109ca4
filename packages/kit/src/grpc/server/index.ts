// The kit's own gRPC server over node:http2 (it replaced @grpc/grpc-js's server, issue 17: ~6 MiB of
// every capability's idle memory). Internal to the kit.
export { GrpcServer, type GrpcServerOptions } from "./server.js";
export { Status, type StatusCode, type StatusError } from "./status.js";
export type {
  Implementation,
  MethodDefinition,
  RequestStream,
  Respond,
  ResponseStream,
  ServerCall,
  ServiceDefinition,
  SingleRequestCall,
} from "./types.js";
