import { PathError } from "./errors.js";

/** Bounds on a path as the model writes it (Linux's own: PATH_MAX 4096, NAME_MAX 255 bytes). */
export const PATH_LIMITS = Object.freeze({ maxBytes: 4096, maxComponentBytes: 255, maxDepth: 64 });

// C0 and C1 controls and DEL: a newline in a name forges lines in listings and approval prompts.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// Format characters (bidi overrides, zero-width joiners, BOM) make a name read as another one
// ("invoice\u202Efdp.exe" shows as "invoiceexe.pdf") in the user's approval prompt.
const INVISIBLE = /\p{Cf}/u;

/**
 * Parses a path the model sent into the components of a path below the workspace root, lexically and
 * without touching the disk. The empty path and "." are the root itself (no components).
 *
 * Refused, each with a message naming `field`: absolute paths, `..` components, NUL and other control
 * characters, invisible format characters, ill-formed UTF-16, and paths past {@link PATH_LIMITS}.
 * Nothing is normalised (no Unicode normalisation, no case folding, no decoding of `%2e`): the name
 * checked is the name used, so no later transformation can turn a safe name into `..`.
 *
 * @throws {PathError}
 */
export function parseRelativePath(input: string, field: string): string[] {
  const show = preview(input);
  if (input.includes("\0")) throw new PathError(`${field}: ${show} contains a NUL byte`);
  if (!input.isWellFormed()) throw new PathError(`${field}: ${show} is not well-formed Unicode (a lone surrogate)`);
  const control = CONTROL.exec(input) ?? INVISIBLE.exec(input);
  if (control) {
    const code = `U+${control[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    const kind = CONTROL.test(control[0]) ? "a control character" : "an invisible formatting character, which can disguise a name,";
    throw new PathError(`${field}: ${show} contains ${kind} (${code})`);
  }
  const bytes = Buffer.byteLength(input);
  if (bytes > PATH_LIMITS.maxBytes) {
    throw new PathError(`${field}: the path is ${bytes} bytes long; paths are limited to ${PATH_LIMITS.maxBytes} bytes`);
  }
  if (input.startsWith("/")) {
    throw new PathError(`${field}: ${show} is absolute; paths are relative to the workspace root, e.g. "notes/todo.txt"`);
  }
  const parts: string[] = [];
  for (const part of input.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") throw new PathError(`${field}: ${show} contains "..", which is not allowed; paths stay inside the workspace`);
    if (Buffer.byteLength(part) > PATH_LIMITS.maxComponentBytes) {
      throw new PathError(`${field}: a name in ${show} is over ${PATH_LIMITS.maxComponentBytes} bytes, the longest a file name can be`);
    }
    parts.push(part);
  }
  if (parts.length > PATH_LIMITS.maxDepth) {
    throw new PathError(`${field}: the path is ${parts.length} levels deep; at most ${PATH_LIMITS.maxDepth} are allowed`);
  }
  return parts;
}

/** The path as shown to the model: components joined with "/", "." for the root. */
export function displayPath(parts: readonly string[]): string {
  return parts.length === 0 ? "." : parts.join("/");
}

/** A path quoted for an error message, shortened so a 4 KiB path doesn't fill the reply. */
export function preview(path: string): string {
  return JSON.stringify(path.length > 120 ? `${path.slice(0, 117)}...` : path);
}
