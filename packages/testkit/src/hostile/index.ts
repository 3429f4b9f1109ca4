// The public API of @selu-catalogue/testkit/hostile: inputs that attack a capability (issue 10).
export { contentBomb, deflateRepeated, objectStreamBomb, pageTreeBomb, pdfFile, streamObject, textOperatorBomb, wideTree } from "./pdf-bombs.js";
export { startHostileWebServer } from "./web-server.js";
export type { HostileWebServer, WebAttack } from "./web-server.js";
