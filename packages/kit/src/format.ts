// How sizes and durations read in messages people act on (errors, refusals): one wording everywhere.

/** Formats a byte count for messages people read ("5 MiB", "512 KiB", "37 bytes"). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

/** Formats a duration for messages people read ("50 ms", "1.5 s"). */
export function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/**
 * Formats a count with its thousands grouped ("20,000"), as `toLocaleString("en")` does without its cost:
 * the first call of that loads ICU's locale data, about 10 MiB a process keeps from then on, and refusals
 * are where counts are formatted.
 */
export function formatCount(count: number): string {
  const [whole = "", fraction] = String(count).split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = sign ? whole.slice(1) : whole;
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let i = grouped.length; i < digits.length; i += 3) grouped += `,${digits.slice(i, i + 3)}`;
  return fraction === undefined ? `${sign}${grouped}` : `${sign}${grouped}.${fraction}`;
}

/**
 * A time as `Date.prototype.toISOString` writes it ("2026-11-23T09:30:00.000Z", years 0 to 9999), from its
 * UTC parts: the first call of toISOString or toUTCString reads ICU's time zone data into the process
 * (V8 sets up the local zone for any date text), about 0.9 MiB of the binary's pages kept from then on.
 */
export function formatIsoTime(time: Date | number): string {
  const date = typeof time === "number" ? new Date(time) : time;
  const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
  const ms = date.getUTCMilliseconds();
  return `${String(date.getUTCFullYear()).padStart(4, "0")}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}.${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`;
}

/** The first `n` UTF-16 units of `text`, less the first half of a surrogate pair cut in two. */
export function sliceWhole(text: string, n: number): string {
  if (text.length <= n) return text;
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}
