import { createHash } from "node:crypto";
import type { ToolContext } from "@selu-catalogue/kit";
import type { OAuthSettings } from "./settings.js";
import { refreshAccessToken } from "./token-request.js";

interface Entry {
  accessToken: string;
  /** When the token is treated as expired (ms since the epoch): shortly before the provider's expiry. */
  renewAt: number;
  /** The newest refresh token: the provider's rotated one, else the configured one. */
  refreshToken: string;
}

export interface AccessTokensOptions {
  /** Accounts remembered at once (an exclusive container serves one user); the oldest go first. */
  maxAccounts?: number;
  now?: () => number;
}

/** Renew this long before the provider's expiry (or a tenth of a short lifetime), so no call races it. */
const MARGIN_MS = 60_000;

/**
 * The access tokens of the accounts this container serves, each kept until shortly before it expires.
 * Concurrent calls share one refresh; a token the mail server refused is dropped with {@link forget}.
 * Tokens live only in this process's memory and are never logged.
 */
export class AccessTokens {
  readonly #entries = new Map<string, Entry>();
  readonly #pending = new Map<string, Promise<Entry>>();
  readonly #max: number;
  readonly #now: () => number;
  readonly #issued = new Set<string>();

  constructor(options: AccessTokensOptions = {}) {
    this.#max = options.maxAccounts ?? 8;
    this.#now = options.now ?? Date.now;
  }

  /** The access tokens this process holds, for masking in errors. */
  get issued(): ReadonlySet<string> {
    return this.#issued;
  }

  /** A valid access token for the account: the cached one, or a new one from the token endpoint. */
  async get(ctx: Pick<ToolContext, "http" | "signal">, settings: OAuthSettings): Promise<string> {
    const key = accountKey(settings);
    const cached = this.#entries.get(key);
    if (cached && cached.renewAt > this.#now()) return cached.accessToken;
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = this.#refresh(ctx, settings, key, cached?.refreshToken ?? settings.refreshToken);
      this.#pending.set(key, pending);
      const done = () => this.#pending.delete(key);
      pending.then(done, done);
    }
    return (await pending).accessToken;
  }

  /** Drops `accessToken` when it is still the account's current one (the server refused it). */
  forget(settings: OAuthSettings, accessToken: string): void {
    const key = accountKey(settings);
    const entry = this.#entries.get(key);
    if (entry?.accessToken === accessToken) entry.renewAt = 0;
  }

  async #refresh(ctx: Pick<ToolContext, "http" | "signal">, settings: OAuthSettings, key: string, refreshToken: string): Promise<Entry> {
    const started = this.#now();
    const issued = await refreshAccessToken(ctx, settings, refreshToken);
    const lifetimeMs = issued.expiresInS * 1000;
    const entry: Entry = {
      accessToken: issued.accessToken,
      renewAt: started + lifetimeMs - Math.min(MARGIN_MS, lifetimeMs / 10),
      refreshToken: issued.refreshToken ?? refreshToken,
    };
    const previous = this.#entries.get(key);
    if (previous) this.#issued.delete(previous.accessToken);
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#issued.add(entry.accessToken);
    if (this.#entries.size > this.#max) {
      const [oldestKey, oldest] = this.#entries.entries().next().value!;
      this.#issued.delete(oldest.accessToken);
      this.#entries.delete(oldestKey);
    }
    return entry;
  }
}

// The configured refresh token identifies the sign-in; hashed, so the map holds no second copy of it.
function accountKey(settings: OAuthSettings): string {
  return createHash("sha256").update(`${settings.tokenUrl.href}\0${settings.clientId}\0${settings.refreshToken}`).digest("hex");
}
