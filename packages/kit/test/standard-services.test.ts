// The standard services, driven by clients built with proto-loader from the protos grpc-health-check and
// @grpc/reflection ship: an implementation independent of the generated code the kit serves them with.
import { createRequire } from "node:module";
import { credentials, loadPackageDefinition, type Client } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { fromBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testCapability } from "./fixtures/capability.ts";
import { start, type Harness } from "./fixtures/client.ts";

const require = createRequire(import.meta.url);
let h: Harness;
let address: string;
beforeAll(async () => {
  h = await start(testCapability);
  address = `127.0.0.1:${h.server.port}`;
});
afterAll(() => h.close());

type AnyClient = Client & Record<string, any>;

function load(file: string): any {
  return loadPackageDefinition(loadSync(file, { keepCase: true, enums: String, defaults: true, oneofs: true }));
}

function healthClient(at = address): AnyClient {
  return new (load(healthProtoPath).grpc.health.v1.Health)(at, credentials.createInsecure());
}

function reflectionClient(version: "v1" | "v1alpha"): AnyClient {
  const file = require.resolve(`@grpc/reflection/build/proto/grpc/reflection/${version}/reflection.proto`);
  return new (load(file).grpc.reflection[version].ServerReflection)(address, credentials.createInsecure());
}

/** Sends the requests on one reflection stream and collects one answer each. */
function askAll(client: AnyClient, requests: object[]): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const answers: any[] = [];
    const call = client.ServerReflectionInfo();
    call.on("data", (r: any) => answers.push(r));
    call.on("error", reject);
    call.on("end", () => resolve(answers));
    for (const request of requests) call.write(request);
    call.end();
  });
}

const descriptorsOf = (answer: any) => answer.file_descriptor_response.file_descriptor_proto.map((bytes: Buffer) => fromBinary(FileDescriptorProtoSchema, bytes));

describe("grpc.health.v1", () => {
  const check = (client: AnyClient, service: string) => new Promise<{ status: string }>((resolve, reject) => client.Check({ service }, (e: Error, r: any) => (e ? reject(e) : resolve(r))));

  it("answers Check with SERVING once ready, for the server and the capability service", async () => {
    const client = healthClient();
    expect((await check(client, "")).status).toBe("SERVING");
    expect((await check(client, "selu.capability.v1.Capability")).status).toBe("SERVING");
    client.close();
  });

  it("answers NOT_FOUND for a service it does not serve", async () => {
    const client = healthClient();
    await expect(check(client, "some.Other")).rejects.toMatchObject({ code: 5, details: expect.stringContaining("some.Other") });
    client.close();
  });

  it("lists both statuses", async () => {
    const client = healthClient();
    const list = await new Promise<any>((resolve, reject) => client.List({}, (e: Error, r: any) => (e ? reject(e) : resolve(r))));
    expect(list.statuses).toEqual({ "": { status: "SERVING" }, "selu.capability.v1.Capability": { status: "SERVING" } });
    client.close();
  });

  it("streams Watch updates through shutdown, and an open Watch does not hold up the drain", async () => {
    const own = await start(testCapability);
    const client = healthClient(`127.0.0.1:${own.server.port}`);
    const seen: string[] = [];
    const ended = new Promise<void>((resolve) => {
      const call = client.Watch({ service: "" });
      call.on("data", (r: { status: string }) => seen.push(r.status));
      call.on("end", resolve);
      call.on("error", () => resolve());
    });
    await until(() => seen.length === 1);
    const started = performance.now();
    await own.server.close(5_000);
    await ended;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(seen).toEqual(["SERVING", "NOT_SERVING"]);
    client.close();
  });

  it("answers Watch for an unknown service with SERVICE_UNKNOWN", async () => {
    const client = healthClient();
    const first = await new Promise<any>((resolve, reject) => {
      const call = client.Watch({ service: "nope" });
      call.on("data", (r: unknown) => {
        resolve(r);
        call.cancel();
      });
      call.on("error", (e: { code: number }) => (e.code === 1 ? undefined : reject(e)));
    });
    expect(first.status).toBe("SERVICE_UNKNOWN");
    client.close();
  });
});

describe("server reflection", () => {
  it.each(["v1", "v1alpha"] as const)("lists the services (%s), so grpcurl needs no .proto", async (version) => {
    const client = reflectionClient(version);
    const [list] = await askAll(client, [{ host: "h", list_services: "*" }]);
    expect(list.valid_host).toBe("h");
    expect(list.list_services_response.service.map((s: { name: string }) => s.name).sort()).toEqual(["grpc.health.v1.Health", "selu.capability.v1.Capability"]);
    client.close();
  });

  it("describes a service, a method, a message and a nested enum from their files", async () => {
    const client = reflectionClient("v1");
    const answers = await askAll(client, [
      { file_containing_symbol: "selu.capability.v1.Capability" },
      { file_containing_symbol: "selu.capability.v1.Capability.DownloadOutputArtifact" },
      { file_containing_symbol: ".selu.capability.v1.ArtifactChunk" },
      { file_containing_symbol: "grpc.health.v1.HealthCheckResponse.ServingStatus" },
      { file_by_filename: "grpc/health/v1/health.proto" },
    ]);
    expect(answers).toHaveLength(5);
    for (const answer of answers.slice(0, 3)) {
      const [file, ...more] = descriptorsOf(answer);
      expect(more).toEqual([]);
      expect(file.name).toBe("capability/v1/capability.proto");
      expect(file.package).toBe("selu.capability.v1");
      expect(file.service[0]?.method.map((m: { name: string }) => m.name)).toEqual(["Invoke", "StreamInvoke", "Healthcheck", "UploadInputArtifact", "DownloadOutputArtifact"]);
      const chunk = file.messageType.find((m: { name: string }) => m.name === "ArtifactChunk");
      expect(chunk.field.map((f: { name: string; number: number }) => `${f.name}=${f.number}`)).toEqual(["data=1", "filename=2", "mime_type=3", "done=4", "error=5"]);
    }
    for (const answer of answers.slice(3)) {
      const [file] = descriptorsOf(answer);
      expect(file.name).toBe("grpc/health/v1/health.proto");
      expect(file.service[0]?.name).toBe("Health");
    }
    client.close();
  });

  it("answers unknown symbols, files and extensions with NOT_FOUND, and an empty request with INVALID_ARGUMENT", async () => {
    const client = reflectionClient("v1");
    const answers = await askAll(client, [
      { file_containing_symbol: "selu.capability.v1.Nope" },
      { file_by_filename: "nope.proto" },
      { file_containing_extension: { containing_type: "selu.capability.v1.InvokeRequest", extension_number: 100 } },
      { all_extension_numbers_of_type: "selu.capability.v1.InvokeRequest" },
      { host: "only" },
    ]);
    expect(answers.map((a) => a.error_response?.error_code)).toEqual([5, 5, 5, undefined, 3]);
    expect(answers[0].error_response.error_message).toContain("selu.capability.v1.Nope");
    expect(answers[3].all_extension_numbers_response).toEqual({ base_type_name: "selu.capability.v1.InvokeRequest", extension_number: [] });
    client.close();
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
