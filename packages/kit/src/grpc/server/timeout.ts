// grpc-timeout: at most 8 digits and a unit (PROTOCOL-HTTP2.md, "Requests").
const TIMEOUT = /^(\d{1,8})([HMSmun])$/;
const UNIT_MS: Record<string, number> = { H: 3_600_000, M: 60_000, S: 1_000, m: 1, u: 0.001, n: 0.000_001 };
// setTimeout's largest delay; a longer timeout is as good as none for a call.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The call's time budget in whole milliseconds, or undefined when the header is malformed. */
export function parseGrpcTimeout(value: string): number | undefined {
  const match = TIMEOUT.exec(value);
  if (!match) return undefined;
  return Math.min(Math.ceil(Number(match[1]) * UNIT_MS[match[2]!]!), MAX_TIMER_MS);
}
