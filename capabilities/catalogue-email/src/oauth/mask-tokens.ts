import { ToolError } from "@selu-catalogue/kit";

/**
 * `err` with each of `tokens` replaced by `[redacted]` in its message and stack, as is and inside the
 * base64 SASL XOAUTH2 string a server could echo back. The kit masks the credentials it was given; access
 * tokens are issued later, inside the capability, so errors that may quote a server pass through here.
 * Returns `err` itself when nothing had to change.
 */
export function maskTokens(err: unknown, tokens: ReadonlySet<string>, user: string): unknown {
  if (!(err instanceof Error) || tokens.size === 0) return err;
  let changed = false;
  const scrub = (text: string | undefined) => {
    if (!text) return text;
    let out = text;
    for (const token of tokens) {
      for (const form of [token, Buffer.from(`user=${user}\x01auth=Bearer ${token}\x01\x01`).toString("base64")]) {
        if (out.includes(form)) {
          out = out.replaceAll(form, "[redacted]");
          changed = true;
        }
      }
    }
    return out;
  };
  const message = scrub(err.message) ?? "";
  const stack = scrub(err.stack);
  if (!changed) return err;
  // A fresh error without the cause, which may hold the server's answer verbatim.
  const clean = err instanceof ToolError ? new ToolError(message) : new Error(message);
  if (stack) clean.stack = stack;
  return clean;
}
