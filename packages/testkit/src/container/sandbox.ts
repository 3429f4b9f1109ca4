import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** What the Selu runner imposes on a capability container, as far as this machine can reproduce it. */
export interface ContainerLimits {
  /** Writable directories besides /tmp (e.g. /workspace for environment capabilities), host paths. */
  writable?: readonly { host: string; path: string }[];
  /** /tmp size; Selu mounts a 64 MiB tmpfs. */
  tmpBytes?: number;
  /** Open-file limit; Selu sets nofile 256. */
  nofile?: number;
  /** Host files or directories under /tmp to show read-only at the same path (a test CA file). */
  readOnly?: readonly string[];
}

/** True when bubblewrap is installed (scripts/install-test-deps.sh installs it). */
export function hasBubblewrap(): boolean {
  try {
    execFileSync("bwrap", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * Wraps a command to run as Selu runs a container: uid:gid 1000:1000, read-only root filesystem, its own
 * tmpfs /tmp (64 MiB), only the listed directories writable, its own pid namespace, nofile 256.
 * Network stays shared so the orchestrator and proxy doubles on loopback are reachable.
 */
export function sandboxCommand(command: readonly string[], limits: ContainerLimits = {}): string[] {
  const args = [
    "bwrap",
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
    "--size", String(limits.tmpBytes ?? 64 * 1024 * 1024),
    "--tmpfs", "/tmp",
    "--unshare-user", "--uid", "1000", "--gid", "1000",
    "--unshare-pid",
    "--die-with-parent",
  ];
  for (const dir of limits.writable ?? []) args.push("--bind", dir.host, dir.path);
  // A checkout under /tmp (CI clones) would vanish under the container's own /tmp: show it read-only.
  const root = workspaceRoot();
  if (root.startsWith("/tmp/")) args.push("--ro-bind", root, root);
  for (const path of limits.readOnly ?? []) args.push("--ro-bind", path, path);
  const quoted = command.map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(" ");
  args.push("--", "sh", "-c", `ulimit -n ${limits.nofile ?? 256} && exec ${quoted}`);
  return args;
}

/** The monorepo's root: the nearest ancestor of this module with a pnpm-workspace.yaml. */
function workspaceRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pnpm-workspace.yaml")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
