import { createRequire } from "node:module";
import { credentials, loadPackageDefinition, type Client } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
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

function load(file: string, includeDirs: string[] = []): any {
  return loadPackageDefinition(loadSync(file, { keepCase: true, enums: String, includeDirs }));
}

describe("standard gRPC services", () => {
  it("answers grpc.health.v1 Check with SERVING once ready", async () => {
    const pkg = load(healthProtoPath);
    const client: Client & Record<string, any> = new pkg.grpc.health.v1.Health(address, credentials.createInsecure());
    const check = (service: string) =>
      new Promise<{ status: string }>((resolve, reject) => client.Check({ service }, (e: Error, r: any) => (e ? reject(e) : resolve(r))));
    expect((await check("")).status).toBe("SERVING");
    expect((await check("selu.capability.v1.Capability")).status).toBe("SERVING");
    client.close();
  });

  it("lists and describes services by reflection, so grpcurl needs no .proto", async () => {
    const reflectionProto = require.resolve("@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto");
    const pkg = load(reflectionProto);
    const client: Client & Record<string, any> = new pkg.grpc.reflection.v1.ServerReflection(address, credentials.createInsecure());
    const ask = (request: object) =>
      new Promise<any>((resolve, reject) => {
        const call = client.ServerReflectionInfo();
        call.on("data", (r: any) => {
          resolve(r);
          call.end();
        });
        call.on("error", reject);
        call.write(request);
      });
    const list = await ask({ list_services: "" });
    const names = list.list_services_response.service.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(["selu.capability.v1.Capability", "grpc.health.v1.Health"]));
    const file = await ask({ file_containing_symbol: "selu.capability.v1.Capability" });
    expect(file.file_descriptor_response.file_descriptor_proto.length).toBeGreaterThan(0);
    client.close();
  });
});
