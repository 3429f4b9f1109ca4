/** Whose documented error answers a double imitates. */
export type ProviderStyle = "microsoft" | "google";

/**
 * An OAuth2 error body (RFC 6749 section 5.2) as the provider writes it: Microsoft adds AADSTS codes,
 * a trace id and a timestamp; Google sends `error` and `error_description` only.
 */
export function errorBody(style: ProviderStyle, error: string, description: string): Record<string, unknown> {
  if (style === "google") return { error, error_description: description };
  const code = AADSTS[error] ?? 90_000;
  return {
    error,
    error_description: `AADSTS${code}: ${description}. Trace ID: 0a1b2c3d-0000-4000-8000-000000000000 Timestamp: 2026-11-23 12:00:00Z`,
    error_codes: [code],
    timestamp: "2026-11-23 12:00:00Z",
    trace_id: "0a1b2c3d-0000-4000-8000-000000000000",
    correlation_id: "5e6f7a8b-0000-4000-8000-000000000000",
  };
}

// The codes Microsoft's identity platform answers for these errors.
const AADSTS: Record<string, number> = {
  invalid_grant: 70_008,
  invalid_client: 7_000_215,
  authorization_pending: 70_016,
  expired_token: 70_020,
  authorization_declined: 70_000,
};
