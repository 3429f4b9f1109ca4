import { status, type sendUnaryData, type Server, type ServerUnaryCall, type ServerWritableStream } from "@grpc/grpc-js";
import { CAPABILITY_SERVICE_NAME } from "@selu-catalogue/proto";
import { HealthCheckResponse_ServingStatus as ServingStatus, HealthService, type HealthCheckRequest, type HealthCheckResponse, type HealthServer } from "@selu-catalogue/proto/standard";

// "" is the server as a whole; generic probes (grpc_health_probe, Kubernetes) ask for it.
const SERVICES = ["", CAPABILITY_SERVICE_NAME];

/**
 * The standard grpc.health.v1 service (Check, Watch, List) for the server and the capability service,
 * NOT_SERVING until the capability is ready and again while it drains.
 */
export class HealthReporter {
  #status = ServingStatus.NOT_SERVING;
  readonly #watches = new Set<ServerWritableStream<HealthCheckRequest, HealthCheckResponse>>();

  addTo(server: Server): void {
    const implementation: HealthServer = {
      check: (call, callback) => this.#check(call, callback),
      watch: (call) => this.#watch(call),
      list: (_call, callback) => callback(null, { statuses: Object.fromEntries(SERVICES.map((name) => [name, { status: this.#status }])) }),
    };
    server.addService(HealthService, implementation);
  }

  setServing(serving: boolean): void {
    const next = serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    if (next === this.#status) return;
    this.#status = next;
    for (const call of this.#watches) call.write({ status: next });
  }

  #check(call: ServerUnaryCall<HealthCheckRequest, HealthCheckResponse>, callback: sendUnaryData<HealthCheckResponse>): void {
    if (!SERVICES.includes(call.request.service)) {
      callback({ code: status.NOT_FOUND, details: `unknown service ${JSON.stringify(call.request.service)}` });
      return;
    }
    callback(null, { status: this.#status });
  }

  // Sends the status now and on every change until the client goes away; unknown services get
  // SERVICE_UNKNOWN and stay open, as the health protocol asks.
  #watch(call: ServerWritableStream<HealthCheckRequest, HealthCheckResponse>): void {
    if (!SERVICES.includes(call.request.service)) {
      call.write({ status: ServingStatus.SERVICE_UNKNOWN });
      return;
    }
    call.write({ status: this.#status });
    this.#watches.add(call);
    call.once("cancelled", () => this.#watches.delete(call));
  }

  /** Ends every Watch stream: a graceful shutdown waits for open calls, and these never end by themselves. */
  endWatches(): void {
    for (const call of this.#watches) call.end();
    this.#watches.clear();
  }
}
