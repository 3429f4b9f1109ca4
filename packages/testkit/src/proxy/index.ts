// The public API of @selu-catalogue/testkit/proxy: everything exported here is supported; nothing else is.
export { startEgressProxy } from "./egress-proxy.js";
export { isAllowedByPolicy, matchesHostPattern, parseHostPort } from "./host-policy.js";
export { PROXY_USER, proxyAuthorization, proxyToken } from "./proxy-auth.js";

export type { EgressAttempt, EgressDecision, EgressProxy, EgressProxyOptions } from "./egress-proxy.js";
export type { HostPort, NetworkMode, NetworkPolicy } from "./host-policy.js";
