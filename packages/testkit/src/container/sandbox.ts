import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ContainerCgroup } from "./cgroup.js";

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
  /** Memory and pids cgroups to run in ({@link createContainerCgroup}); without one only RSS can be measured. */
  cgroup?: ContainerCgroup;
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
 * tmpfs /tmp (64 MiB, mounted noexec where we are root), only the listed directories writable, its own pid
 * namespace, nofile 256, and the memory and pids cgroups when given. Network stays shared so the
 * orchestrator and proxy doubles on loopback are reachable.
 */
export function sandboxCommand(command: readonly string[], limits: ContainerLimits = {}): string[] {
  const tmpBytes = limits.tmpBytes ?? 64 * 1024 * 1024;
  const root = process.getuid?.() === 0 && existsSync("/mnt");
  // bubblewrap can't mount a tmpfs noexec; as root, a private mount namespace mounts one over /mnt and
  // the sandbox binds it as /tmp (then hides /mnt under an empty read-only tmpfs). Nothing leaks to the host.
  const prelude: string[] = [];
  for (const file of limits.cgroup?.procsFiles ?? []) prelude.push(`echo $$ > ${file}`);
  if (root) prelude.push(`mount -t tmpfs -o noexec,nosuid,nodev,size=${tmpBytes},mode=1777 tmpfs /mnt`);
  const args = [
    "bwrap",
    ...readOnlyRoot((limits.writable ?? []).map((dir) => dir.path)),
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    ...(root ? ["--bind", "/mnt", "/tmp", "--tmpfs", "/mnt", "--remount-ro", "/mnt"] : ["--size", String(tmpBytes), "--tmpfs", "/tmp"]),
    "--unshare-user",
    "--uid",
    "1000",
    "--gid",
    "1000",
    "--unshare-pid",
    "--die-with-parent",
  ];
  for (const dir of limits.writable ?? []) args.push("--bind", dir.host, dir.path);
  // A checkout under /tmp (CI clones) would vanish under the container's own /tmp: show it read-only.
  const checkout = workspaceRoot();
  if (checkout.startsWith("/tmp/")) args.push("--ro-bind", checkout, checkout);
  for (const path of limits.readOnly ?? []) args.push("--ro-bind", path, path);
  // Mount points made in a fresh root (readOnlyRoot) are sealed now, as Selu's read-only root is.
  if (args.includes("--dir")) args.push("--remount-ro", "/");
  const quoted = command.map(shellQuote).join(" ");
  args.push("--", "sh", "-c", `ulimit -n ${limits.nofile ?? 256} && exec ${quoted}`);
  if (prelude.length === 0) return args;
  const outer = [...prelude, `exec ${args.map(shellQuote).join(" ")}`].join(" && ");
  return root ? ["unshare", "--mount", "--propagation", "private", "sh", "-c", outer] : ["sh", "-c", outer];
}

function shellQuote(part: string): string {
  return `'${part.replaceAll("'", "'\\''")}'`;
}

/**
 * The host's root, read-only. When a writable mount point (Selu's /workspace) does not exist on the host,
 * it can't be made inside a read-only bind of "/", so the root is built instead: each top-level entry
 * bound read-only (links kept as links) and the mount point made as an empty directory, the whole root
 * remounted read-only afterwards.
 */
function readOnlyRoot(mountPoints: readonly string[]): string[] {
  const missing = mountPoints.filter((path) => !existsSync(path));
  if (missing.length === 0) return ["--ro-bind", "/", "/"];
  const own = new Set(["proc", "dev", "tmp", ...missing.map((path) => path.split("/")[1])]);
  const args: string[] = [];
  for (const name of readdirSync("/")) {
    if (own.has(name)) continue;
    const path = `/${name}`;
    if (lstatSync(path).isSymbolicLink()) args.push("--symlink", readlinkSync(path), path);
    else args.push("--ro-bind", path, path);
  }
  for (const path of missing) args.push("--dir", path);
  return args;
}

/** The monorepo's root: the nearest ancestor of this module with a pnpm-workspace.yaml. */
function workspaceRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "pnpm-workspace.yaml")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}
