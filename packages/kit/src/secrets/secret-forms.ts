/**
 * The forms a secret takes when code around it transforms it before it reaches an error message: as is,
 * JSON-escaped (once and twice), URL-encoded, hex, and base64 (standard and URL-safe) wherever it sits
 * in a longer encoded value such as `user:secret` in a Basic header. Matching is case-insensitive, which
 * also covers a lowercased or uppercased secret (issue 10 item 8). Shorter than 4 characters: not
 * masked, since it would mask ordinary words.
 */
export function secretForms(secret: string): string[] {
  if (secret.length < 4) return [];
  const bytes = Buffer.from(secret, "utf8");
  const escaped = JSON.stringify(secret).slice(1, -1);
  const forms = new Set([secret, escaped, JSON.stringify(escaped).slice(1, -1), encodeURIComponent(secret), bytes.toString("hex")]);
  for (const core of base64Cores(bytes)) {
    forms.add(core);
    forms.add(core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return [...forms].filter((form) => form.length >= 4);
}

/**
 * The base64 characters that depend only on `bytes`, for each of the three positions the bytes can
 * start at within an encoded value: a character covers bits [6c, 6c + 6) of the stream.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const first = Math.ceil((8 * offset) / 6);
    const last = Math.floor((8 * (offset + bytes.length) - 6) / 6);
    const core = encoded.slice(first, last + 1);
    // A short core would match unrelated base64 text.
    if (core.length >= 6) cores.push(core);
  }
  return cores;
}

/** One case-insensitive pattern matching every form of every secret, longest first; undefined for none. */
export function secretsPattern(secrets: Iterable<string>): RegExp | undefined {
  const forms = new Set<string>();
  for (const secret of secrets) for (const form of secretForms(secret)) forms.add(form);
  if (forms.size === 0) return undefined;
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map((f) => f.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"));
  return new RegExp(alternatives.join("|"), "gi");
}
