import type { MethodDefinition, ServiceDefinition } from "./server/index.js";

interface Encoder<T> {
  encode(message: T): { finish(): Uint8Array };
}

type ResponseEncoders<D> = { [K in keyof D]?: D[K] extends MethodDefinition<infer _Req, infer Res> ? Encoder<Res> : never };

/**
 * A copy of a ts-proto service definition whose responses of the given methods are serialized without
 * the extra copy the generated code makes (`Buffer.from(encode().finish())` copies every message; a 5 MiB
 * download is twenty 256 KiB copies). The encoded bytes are fresh and never reused, so a Buffer view over
 * them is safe. Only for large messages: V8 keeps a typed array of up to 64 bytes inside its heap, and a
 * view over it first moves it out (an allocation and a copy dearer than the pooled copy it saves; the
 * kit bench saw it on every Invoke answer).
 */
export function withZeroCopyResponses<D extends ServiceDefinition>(definition: D, encoders: ResponseEncoders<D>): D {
  const methods: Record<string, MethodDefinition<unknown, unknown>> = {};
  for (const [name, method] of Object.entries(definition)) {
    const encoder = encoders[name as keyof D] as Encoder<unknown> | undefined;
    methods[name] = !encoder
      ? method
      : {
          ...method,
          responseSerialize: (value: unknown) => {
            const bytes = encoder.encode(value).finish();
            return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
          },
        };
  }
  return methods as D;
}
