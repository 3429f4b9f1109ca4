/**
 * `bytes` in memory of their own, for keeping past the call that made them: `bytes` itself when it is the
 * whole of its memory, else a copy. Not `Buffer.from`: like `Buffer.concat`, `allocUnsafe` and zlib's
 * output, it takes anything under half of `Buffer.poolSize` (64 KiB in Node 24) from a shared slab, so a
 * kept 1 KB buffer would hold a 64 KiB slab alive, and a budget counted in bytes would hold many times its
 * size.
 */
export function ownMemory(bytes: Uint8Array): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength) {
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, 0, bytes.byteLength);
  }
  const copy = Buffer.allocUnsafeSlow(bytes.byteLength);
  copy.set(bytes);
  return copy;
}
