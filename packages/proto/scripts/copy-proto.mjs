// Ships the contract's .proto inside the package, for server reflection at run time.
import { cpSync, mkdirSync } from "node:fs";
const from = new URL("../../../proto/capability/v1/", import.meta.url);
const to = new URL("../proto/capability/v1/", import.meta.url);
mkdirSync(to, { recursive: true });
cpSync(new URL("capability.proto", from), new URL("capability.proto", to));
