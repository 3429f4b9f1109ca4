/** UTF-8 bytes of a value as JSON: what counts against Selu's 49,152-byte result bound. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}
