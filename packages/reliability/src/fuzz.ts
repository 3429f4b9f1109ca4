import { HOSTILE_WEB_HOST } from "./profiles.js";

/** A seeded random source (mulberry32): the same seed gives the same calls, so a failure reproduces. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  /** In [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

type Schema = Record<string, unknown>;

// Strings a model or an attacker might put anywhere: paths out of roots, internal and hostile URLs,
// injection attempts, control and odd Unicode characters, a NUL.
const NASTY_STRINGS = [
  "",
  " ",
  "../../../../etc/passwd",
  "/etc/passwd",
  "C:\\Windows\\system32",
  "\u0000",
  "a\r\nX-Injected: 1",
  "https://127.0.0.1/x.png",
  "https://169.254.169.254/latest/meta-data/",
  "http://[::1]:50051/",
  `https://${HOSTILE_WEB_HOST}/image.png`,
  `https://${HOSTILE_WEB_HOST}/redirect`,
  "file:///etc/passwd",
  "\ud800",
  "😀".repeat(50),
  "ש".repeat(30),
  "%s%s%s%n",
  "${jndi:ldap://x}",
  '"; DROP TABLE x; --',
  "OR 1=1",
  'INBOX" (FLAGS)',
  "1-,1-,1-,1-",
  "1e309",
  "NaN",
];
const NASTY_NUMBERS = [0, -1, -0, 1, 0.5, 2 ** 31, 2 ** 32, 2 ** 53 + 1, -(2 ** 53), 1e308, -1e308, 123456789];

/**
 * A value that fits `schema` (as far as it says), built at random within its bounds; `minimal`: objects
 * get their required properties only (the call most likely to pass validation and reach the network).
 */
export function generate(schema: unknown, rng: Rng, depth = 0, minimal = false): unknown {
  const s = (schema ?? {}) as Schema;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum)) return rng.pick(s.enum);
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union) && union.length > 0) return generate(rng.pick(union), rng, depth, minimal);
  const type = Array.isArray(s.type) ? rng.pick(s.type as string[]) : (s.type as string | undefined);
  switch (type) {
    case "object": {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set((s.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [key, sub] of Object.entries(properties)) {
        if (!required.has(key) && (minimal || !(depth < 4 && rng.chance(0.5)))) continue;
        // A URL field points at the suite's hostile web server (mapped by the egress proxy double).
        out[key] = /url/i.test(key) && (sub as Schema | undefined)?.type === "string" && rng.chance(0.7) ? `https://${HOSTILE_WEB_HOST}/${rng.int(0, 99)}.png` : generate(sub, rng, depth + 1, minimal);
      }
      return out;
    }
    case "array": {
      const min = Number(s.minItems ?? 0);
      const max = Math.min(Number(s.maxItems ?? 4), min + 4, depth > 3 ? min : 99);
      return Array.from({ length: minimal ? Math.max(min, 1) : rng.int(min, Math.max(min, max)) }, () => generate(s.items, rng, depth + 1, minimal));
    }
    case "string":
      return string(s, rng);
    case "integer":
      return rng.int(Number(s.minimum ?? 0), Math.min(Number(s.maximum ?? 1000), Number(s.minimum ?? 0) + 1000));
    case "number":
      return Number(s.minimum ?? 0) + rng.next() * 100;
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    default:
      return rng.pick(["x", 1, true, null, {}, []]);
  }
}

function string(s: Schema, rng: Rng): string {
  const min = Number(s.minLength ?? 0);
  const max = Math.min(Number(s.maxLength ?? 40), min + 40);
  if (s.format === "email") return rng.pick(["bob@example.com", "a@b.c", "not-an-address"]);
  if (s.format === "uri") return `https://${HOSTILE_WEB_HOST}/${rng.int(0, 9)}`;
  if (rng.chance(0.2)) return rng.pick(NASTY_STRINGS);
  const length = rng.int(min, Math.max(min, max));
  return Array.from({ length }, () => String.fromCharCode(rng.int(0x20, 0x7e))).join("");
}

/**
 * Mutates a valid value once or a few times: a node replaced by a wrong type, a null, an odd number or
 * string, a required key removed, an unknown key added, a long string, a deep nest.
 */
export function mutate(value: unknown, rng: Rng): unknown {
  const copy = structuredClone(value);
  const holder = { root: copy };
  for (let i = rng.int(1, 3); i > 0; i--) {
    const [parent, key] = randomSlot(holder, rng);
    const target = parent as Record<string, unknown>;
    switch (rng.int(0, 8)) {
      case 0:
        target[key] = null;
        break;
      case 1:
        target[key] = rng.pick(NASTY_NUMBERS);
        break;
      case 2:
        target[key] = rng.pick(NASTY_STRINGS);
        break;
      case 3:
        target[key] = rng.pick([{}, [], true, "1", [null], { "": "" }]);
        break;
      case 4:
        if (!Array.isArray(target)) delete target[key];
        break;
      case 5:
        if (isPlainObject(target[key])) (target[key] as Record<string, unknown>)[`unknown_${rng.int(0, 99)}`] = "x";
        else target[key] = JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}');
        break;
      case 6:
        target[key] = "x".repeat(rng.pick([1_000, 70_000, 300_000]));
        break;
      case 7: {
        let nested: unknown = "deep";
        for (let d = rng.pick([10, 100, 1_000]); d > 0; d--) nested = rng.chance(0.5) ? [nested] : { a: nested };
        target[key] = nested;
        break;
      }
      default:
        if (Array.isArray(target[key])) (target[key] as unknown[]).push(...(target[key] as unknown[]));
        else target[key] = [target[key], target[key]];
    }
  }
  return holder.root;
}

/** A random (container, key) inside `holder`, the root included. */
function randomSlot(holder: { root: unknown }, rng: Rng): [object, string] {
  let parent: object = holder;
  let key = "root";
  for (let depth = 0; depth < 6; depth++) {
    const value = (parent as Record<string, unknown>)[key];
    if (!value || typeof value !== "object") break;
    const keys = Object.keys(value);
    if (keys.length === 0 || rng.chance(0.3)) break;
    parent = value;
    key = rng.pick(keys);
  }
  return [parent, key];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

/**
 * Arguments of about `bytes` bytes as JSON: the valid `base` with its longest string field (or a new
 * key) grown to that size. `structured`: many small objects instead (`{"x":[{},{},…]}`), the shape
 * that exhausted heaps in issue 10 item 1.
 */
export function huge(base: unknown, bytes: number, structured: boolean, rng: Rng): unknown {
  const args = isPlainObject(base) ? { ...base } : {};
  const keys = Object.keys(args).filter((k) => typeof args[k] === "string");
  const key = keys.length > 0 ? rng.pick(keys) : "padding";
  args[key] = structured ? Array.from({ length: Math.floor(bytes / 3) }, () => ({})) : "y".repeat(bytes);
  return args;
}
