// Zero-copy serializers only where they pay: large messages (downloads), the generated ones elsewhere.
import { ArtifactChunk, CapabilityService } from "@selu-catalogue/proto";
import { describe, expect, it } from "vitest";
import { withZeroCopyResponses } from "./zero-copy.js";

describe("withZeroCopyResponses", () => {
  const service = withZeroCopyResponses(CapabilityService, { downloadOutputArtifact: ArtifactChunk });

  it("keeps the generated serializer of every method it was given no encoder for", () => {
    expect(service.invoke).toBe(CapabilityService.invoke);
    expect(service.healthcheck).toBe(CapabilityService.healthcheck);
  });

  it("serializes a download chunk to the same bytes as the generated code, as a view over the encoded bytes", () => {
    const chunk = { data: Buffer.alloc(300_000, 7), filename: "a.bin", mimeType: "application/octet-stream", done: true, error: "" };
    const bytes = service.downloadOutputArtifact.responseSerialize(chunk);
    expect(bytes.equals(CapabilityService.downloadOutputArtifact.responseSerialize(chunk))).toBe(true);
    expect(bytes.byteLength).toBe(bytes.buffer.byteLength);
  });
});
