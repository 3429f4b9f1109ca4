import { TOOL_RESULT_LIMIT_BYTES, TRUNCATION_MARKER } from "./selu-wording.js";

/**
 * What a test sees when a capability does something Selu would cut, panic on or silently ignore: a bug in
 * the capability, so (in strict mode, the default) the call rejects instead of returning an outcome.
 */
export class SeluFinding extends Error {
  override name = "SeluFinding";
}

/**
 * Selu's rule for a result over 49,152 UTF-8 bytes (`trim_to_budget`): cut at that byte and marked, on every
 * loop iteration and on every reload of the thread; when the cut falls inside a multi-byte character, Rust's
 * `String::truncate` panics and the turn (and every later turn of the thread) fails. `report` is told
 * about the size (it throws in strict mode); the cut text is returned otherwise, and a cut inside a
 * character always throws, since Selu gives no outcome at all then.
 */
export function checkResultSize(tool: string, text: string, report: (finding: string) => void): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.byteLength <= TOOL_RESULT_LIMIT_BYTES) return text;
  const size = bytes.byteLength.toLocaleString("en-US");
  const boundary = isCharBoundary(bytes, TOOL_RESULT_LIMIT_BYTES);
  report(
    `${tool} returned a result of ${size} UTF-8 bytes; Selu cuts any result over 49,152 bytes` +
      (boundary ? " (the model would see it truncated)" : ", and this cut falls inside a multi-byte character, which makes Selu's turn panic"),
  );
  if (!boundary) throw new SeluFinding(`${tool}: Selu panics cutting a ${size}-byte result inside a multi-byte character`);
  return bytes.subarray(0, TOOL_RESULT_LIMIT_BYTES).toString("utf8") + TRUNCATION_MARKER;
}

/** True when byte `index` starts a UTF-8 character (not a continuation byte 10xxxxxx). */
function isCharBoundary(bytes: Buffer, index: number): boolean {
  return index >= bytes.byteLength || (bytes[index]! & 0xc0) !== 0x80;
}
