import type { MethodDefinition, ServiceDefinition } from "@grpc/grpc-js";

interface Encoder<T> {
  encode(message: T): { finish(): Uint8Array };
}

type ResponseEncoders<D> = { [K in keyof D]: D[K] extends MethodDefinition<any, infer Res> ? Encoder<Res> : never };

/**
 * A copy of a ts-proto service definition whose responses are serialized without the extra copy the
 * generated code makes (`Buffer.from(encode().finish())` copies every message; a 5 MiB download is twenty
 * 256 KiB copies). The encoded bytes are fresh and never reused, so a Buffer view over them is safe.
 */
export function withZeroCopyResponses<D extends ServiceDefinition>(definition: D, encoders: ResponseEncoders<D>): D {
  const methods: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    const encoder = encoders[name as keyof D] as Encoder<unknown>;
    methods[name] = {
      ...method,
      responseSerialize: (value: unknown) => {
        const bytes = encoder.encode(value).finish();
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      },
    };
  }
  return methods as D;
}
