import { reflectionV1, reflectionV1alpha, SERVED_PROTO_FILES, type ServedProtoFile } from "@selu-catalogue/proto/standard";
import { Status, type GrpcServer, type RequestStream, type ResponseStream, type StatusCode } from "./server/index.js";

type Request = reflectionV1.ServerReflectionRequest;
type Response = reflectionV1.ServerReflectionResponse;

/**
 * Server reflection (grpc.reflection.v1 and v1alpha, which share one message layout) for the capability
 * and health services, so grpcurl and similar tools need no .proto file. Answers come from descriptors
 * generated at build time; nothing is parsed until the first request.
 */
export function addReflectionService(server: GrpcServer): void {
  let index: ReflectionIndex | undefined;
  const serve = (call: RequestStream<Request> & ResponseStream<Response>) => {
    call.receive(
      (request) => call.write(answer((index ??= new ReflectionIndex(SERVED_PROTO_FILES)), request)),
      () => call.end(),
    );
  };
  server.addService(reflectionV1.ServerReflectionService, { serverReflectionInfo: serve });
  server.addService(reflectionV1alpha.ServerReflectionService, { serverReflectionInfo: serve });
}

export function answer(index: ReflectionIndex, request: Request): Response {
  const response: Response = { validHost: request.host, originalRequest: request };
  const fail = (code: StatusCode, message: string): Response => ({ ...response, errorResponse: { errorCode: code, errorMessage: message } });
  if (request.listServices !== undefined) {
    return { ...response, listServicesResponse: { service: index.services.map((name) => ({ name })) } };
  }
  if (request.fileByFilename !== undefined) {
    const file = index.files.get(request.fileByFilename);
    return file ? { ...response, fileDescriptorResponse: { fileDescriptorProto: [file] } } : fail(Status.NOT_FOUND, `file not found: ${request.fileByFilename}`);
  }
  if (request.fileContainingSymbol !== undefined) {
    // Some clients send a leading dot (a fully qualified reference as it appears inside descriptors).
    const file = index.fileOf(request.fileContainingSymbol.replace(/^\./, ""));
    return file ? { ...response, fileDescriptorResponse: { fileDescriptorProto: [file] } } : fail(Status.NOT_FOUND, `symbol not found: ${request.fileContainingSymbol}`);
  }
  if (request.fileContainingExtension !== undefined) {
    const { containingType, extensionNumber } = request.fileContainingExtension;
    return fail(Status.NOT_FOUND, `no extension ${extensionNumber} of ${containingType}: these services declare no extensions`);
  }
  if (request.allExtensionNumbersOfType !== undefined) {
    const type = request.allExtensionNumbersOfType.replace(/^\./, "");
    return index.fileOf(type) ? { ...response, allExtensionNumbersResponse: { baseTypeName: type, extensionNumber: [] } } : fail(Status.NOT_FOUND, `type not found: ${type}`);
  }
  return fail(Status.INVALID_ARGUMENT, "the request names no question (list_services, file_by_filename, file_containing_symbol, ...)");
}

/** Lookups over the served files. None imports another, so a file's descriptor answers on its own. */
export class ReflectionIndex {
  readonly services: readonly string[];
  readonly files = new Map<string, Buffer>();
  readonly #symbols = new Map<string, string>();

  constructor(files: readonly ServedProtoFile[]) {
    this.services = files.flatMap((f) => f.services);
    for (const file of files) {
      this.files.set(file.name, Buffer.from(file.descriptor, "base64"));
      for (const symbol of file.symbols) this.#symbols.set(symbol, file.name);
    }
  }

  fileOf(symbol: string): Buffer | undefined {
    const name = this.#symbols.get(symbol);
    return name === undefined ? undefined : this.files.get(name);
  }
}
