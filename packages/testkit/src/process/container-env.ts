import { existsSync, readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { loadManifest } from "@selu-catalogue/manifest";
import { imageEnv } from "../conformance/dockerfile.js";

/** Docker's default PATH, with this Node's directory first (the image has node in /usr/local/bin). */
const PATH = [dirname(process.execPath), "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"].join(":");

/** Which container Selu would be starting: one session's (exclusive) or everyone's (shared). */
export interface SeluContainerIdentity {
  /** `SELU_SESSION_ID` for an exclusive container; default a fresh UUID. Ignored for a shared one. */
  sessionId?: string;
}

/**
 * The environment of a capability in `dir` as a Selu container has it, and nothing of the host's: PATH
 * (the image's), the final stage's `ENV` from the Dockerfile, `SELU_CAPABILITY_ID` and `SELU_SESSION_ID`
 * or `SELU_SHARED=true` from manifest.yaml (when present), then `extra` (what the test adds: the proxy
 * variables, a test CA, LOG_LEVEL). `PORT` is set by the runner on top: processes on one host can't all
 * bind Selu's 50051.
 */
export function containerEnv(dir: string, extra: Record<string, string> = {}, identity: SeluContainerIdentity = {}): Record<string, string> {
  const env: Record<string, string> = { PATH };
  const dockerfile = join(dir, "Dockerfile");
  if (existsSync(dockerfile)) Object.assign(env, imageEnv(readFileSync(dockerfile, "utf8")));
  const manifestFile = join(dir, "manifest.yaml");
  if (existsSync(manifestFile)) {
    const manifest = loadManifest(manifestFile).manifest;
    if (manifest) {
      env.SELU_CAPABILITY_ID = manifest.id;
      if (manifest.sharing.mode === "shared") env.SELU_SHARED = "true";
      else env.SELU_SESSION_ID = identity.sessionId ?? randomUUID();
    }
  }
  return { ...env, ...extra };
}
