// The public API of @selu-catalogue/testkit/oauth: an OAuth2 provider double (token, device code, introspection).
export { startOAuthProvider } from "./token-endpoint.js";
export { errorBody } from "./error-shapes.js";

export type { BrowserSignIn } from "./authorization-code.js";
export type { DeviceFlow } from "./device-flow.js";
export type { ProviderStyle } from "./error-shapes.js";
export type { OAuthProviderOptions, OAuthTestProvider, TokenEndpointRequest } from "./token-endpoint.js";
