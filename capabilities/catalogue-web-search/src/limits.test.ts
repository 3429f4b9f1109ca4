import { MAX_RESULT_BYTES } from "@selu-catalogue/kit";
import { describe, expect, it } from "vitest";
import { WEB_LIMITS } from "./limits.js";

describe("WEB_LIMITS", () => {
  it("keeps a result under Selu's 49,152-byte bound with room for the artifact rewrite", () => {
    expect(WEB_LIMITS.maxResultBytes).toBeLessThan(MAX_RESULT_BYTES);
    expect(MAX_RESULT_BYTES - WEB_LIMITS.maxResultBytes).toBeGreaterThanOrEqual(1_024);
  });

  it("lets a search wait for Retry-After and fall back within its deadline", () => {
    expect(WEB_LIMITS.maxRetryAfterMs + WEB_LIMITS.providerTimeoutMs).toBeLessThanOrEqual(WEB_LIMITS.searchDeadlineMs);
    expect(WEB_LIMITS.defaultPageChars).toBeLessThanOrEqual(WEB_LIMITS.maxPageChars);
  });
});
