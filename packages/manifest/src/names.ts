// Rules for the names Selu builds other names from. Each check returns what's wrong, in words, or undefined.

/** Providers cap tool names at 64 characters (`^[a-zA-Z0-9_-]{1,64}$`), and Selu sends `<id>__<tool>`. */
export const MAX_QUALIFIED_TOOL_NAME = 64;

/**
 * A capability id: Selu prefixes tool names with `<id>__` and names containers after it, so it must be
 * lowercase letters, digits and single hyphens, must not contain `__`, and start and end alphanumeric
 * (Docker container names start with one).
 */
export function checkCapabilityId(id: string): string | undefined {
  if (id === "") return "must not be empty: expected lowercase letters, digits and hyphens, e.g. pdf-tools";
  if (id.includes("__")) return `"${id}" contains "__", which Selu uses to join the id and the tool name`;
  if (id !== id.toLowerCase()) return `"${id}" has capitals: expected lowercase letters, digits and hyphens`;
  if (!/^[a-z0-9-]+$/.test(id)) return `"${id}" has characters other than lowercase letters, digits and hyphens`;
  if (!/^[a-z0-9](?:-?[a-z0-9])*$/.test(id)) return `"${id}" must start and end with a letter or digit and not repeat hyphens`;
  if (id.length > 63) return `is ${id.length} characters long: expected at most 63 (it is part of container and tool names)`;
  return undefined;
}

/**
 * A tool name: a snake_case identifier (lowercase letters, digits, single underscores, starting with a
 * letter). Selu prefixes it with `<id>__`, so a `__` inside it would make the split ambiguous.
 */
export function checkToolName(name: string): string | undefined {
  if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(name)) return undefined;
  return `"${name}" is not a snake_case identifier: expected lowercase letters, digits and single underscores, starting with a letter (e.g. create_pdf)`;
}

/** The name the model sees is `<id>__<tool>`; providers refuse tool names longer than 64 characters. */
export function checkQualifiedToolName(id: string, name: string): string | undefined {
  const qualified = `${id}__${name}`;
  if (qualified.length <= MAX_QUALIFIED_TOOL_NAME) return undefined;
  return `the model sees "${qualified}" (${qualified.length} characters): expected at most ${MAX_QUALIFIED_TOOL_NAME}; shorten the tool name or the id`;
}

/**
 * A credential name: the key Selu uses in `config_json` and in i18n keys. The catalogue writes them as
 * UPPER_SNAKE_CASE environment-style names (e.g. GITHUB_TOKEN).
 */
export function checkCredentialName(name: string): string | undefined {
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(name)) return undefined;
  return `"${name}" is not UPPER_SNAKE_CASE: expected capital letters, digits and single underscores (e.g. API_TOKEN)`;
}

// [registry[:port]/]path[:tag][@sha256:digest], lowercase path components (Docker reference grammar).
const IMAGE = /^(?:[a-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-]+[a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-]+[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/**
 * An image reference with a pinned tag or digest: Selu's runner never pulls, and the marketplace pulls
 * `capability_images` exactly as written, so `image` must name one exact, published version.
 */
export function checkImageReference(image: string): string | undefined {
  if (image.trim() === "") return "must not be empty: expected an image reference such as ghcr.io/owner/selu-cap-name:1.0.0";
  if (/^[a-z]+:\/\//i.test(image)) return `"${image}" has a URL scheme: expected a reference such as ghcr.io/owner/selu-cap-name:1.0.0`;
  if (!IMAGE.test(image)) return `"${image}" is not a Docker image reference: expected [registry/]path:tag with a lowercase path`;
  const lastPart = image.split("/").at(-1) ?? "";
  if (!lastPart.includes(":") && !image.includes("@")) return `"${image}" has no tag: pin a version (e.g. :1.0.0); Selu's runner never pulls a newer one`;
  return undefined;
}

/** The prefix every catalogue capability id carries, so none can collide with a first-party Selu id. */
export const CATALOGUE_ID_PREFIX = "catalogue-";

/**
 * Selu's first-party capability ids (its bundled agents). Capability ids are keyed globally across every
 * installed agent (credentials, shared containers, tool names), so reusing one collides silently.
 */
export const FIRST_PARTY_CAPABILITY_IDS: readonly string[] = ["pdf", "web", "weather", "pim-icloud", "github-coding", "iserv", "schulessen", "bring-shopping"];

/**
 * The catalogue's id rule: `catalogue-<name>`, where the id is not one of Selu's first-party ids. Returns
 * what's wrong, or undefined. (The general id rules are {@link checkCapabilityId}'s.)
 *
 * @example
 * checkCatalogueId("pdf"); // '"pdf" is a first-party Selu capability id: …'
 * checkCatalogueId("catalogue-pdf"); // undefined
 */
export function checkCatalogueId(id: string): string | undefined {
  if (FIRST_PARTY_CAPABILITY_IDS.includes(id)) {
    return `"${id}" is a first-party Selu capability id: capability ids are global across installed agents, so it would collide; use ${CATALOGUE_ID_PREFIX}${id}`;
  }
  if (!id.startsWith(CATALOGUE_ID_PREFIX) || id.length === CATALOGUE_ID_PREFIX.length) {
    return `"${id}" does not follow the catalogue's id rule: expected ${CATALOGUE_ID_PREFIX}<name> (e.g. ${CATALOGUE_ID_PREFIX}${id || "pdf"}), which no first-party Selu capability uses`;
  }
  return undefined;
}
