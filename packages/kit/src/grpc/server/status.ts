/** gRPC status codes (the protocol's numbers), the ones the kit answers with and tests name. */
export const Status = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  RESOURCE_EXHAUSTED: 8,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
} as const;

export type StatusCode = (typeof Status)[keyof typeof Status];

/** A call's outcome other than OK, as a handler reports it and as the trailers carry it. */
export interface StatusError {
  code: StatusCode;
  details: string;
}

/**
 * `grpc-message` is percent-encoded UTF-8: bytes outside printable ASCII, and '%' itself, as %XX
 * (PROTOCOL-HTTP2.md, "Responses"). Most messages are plain ASCII and go out as they are.
 */
export function encodeGrpcMessage(message: string): string {
  if (/^[\x20-\x24\x26-\x7e]*$/.test(message)) return message;
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
