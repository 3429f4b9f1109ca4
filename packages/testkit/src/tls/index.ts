// The public API of @selu-catalogue/testkit/tls: everything exported here is supported; nothing else is.
export { startHttpsServer, startTlsServer } from "./local-servers.js";
export { createTestCa } from "./test-ca.js";

export type { LocalServer } from "./local-servers.js";
export type { IssuedCertificate, IssueOptions, TestCa, TestCaOptions } from "./test-ca.js";
