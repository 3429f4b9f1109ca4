import { CAPABILITY_SERVICE_NAME } from "@selu-catalogue/proto";
import { HealthCheckResponse_ServingStatus as ServingStatus, HealthService, type HealthCheckRequest, type HealthCheckResponse } from "@selu-catalogue/proto/standard";
import { Status, type GrpcServer, type Implementation, type Respond, type ResponseStream, type SingleRequestCall } from "./server/index.js";

type WatchCall = SingleRequestCall<HealthCheckRequest> & ResponseStream<HealthCheckResponse>;

// "" is the server as a whole; generic probes (grpc_health_probe, Kubernetes) ask for it.
const SERVICES = ["", CAPABILITY_SERVICE_NAME];

/**
 * The standard grpc.health.v1 service (Check, Watch, List) for the server and the capability service,
 * NOT_SERVING until the capability is ready and again while it drains.
 */
export class HealthReporter {
  #status = ServingStatus.NOT_SERVING;
  readonly #watches = new Set<WatchCall>();

  addTo(server: GrpcServer): void {
    const implementation: Implementation<typeof HealthService> = {
      check: (call, respond) => this.#check(call, respond),
      watch: (call) => this.#watch(call),
      list: (_call, respond) => respond(null, { statuses: Object.fromEntries(SERVICES.map((name) => [name, { status: this.#status }])) }),
    };
    server.addService(HealthService, implementation);
  }

  setServing(serving: boolean): void {
    const next = serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
    if (next === this.#status) return;
    this.#status = next;
    for (const call of this.#watches) call.write({ status: next });
  }

  #check(call: SingleRequestCall<HealthCheckRequest>, respond: Respond<HealthCheckResponse>): void {
    if (!SERVICES.includes(call.request.service)) {
      respond({ code: Status.NOT_FOUND, details: `unknown service ${JSON.stringify(call.request.service)}` });
      return;
    }
    respond(null, { status: this.#status });
  }

  // Sends the status now and on every change until the client goes away; unknown services get
  // SERVICE_UNKNOWN and stay open, as the health protocol asks.
  #watch(call: WatchCall): void {
    if (!SERVICES.includes(call.request.service)) {
      call.write({ status: ServingStatus.SERVICE_UNKNOWN });
      return;
    }
    call.write({ status: this.#status });
    this.#watches.add(call);
    call.onCancel(() => this.#watches.delete(call));
  }

  /** Ends every Watch stream: a graceful shutdown waits for open calls, and these never end by themselves. */
  endWatches(): void {
    for (const call of this.#watches) call.end();
    this.#watches.clear();
  }
}
