import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

/**
 * A capability's built image, mounted on the host, that the tests run instead of the checkout
 * (issue 13: a broken image must fail the tests). `./dev images` writes it as JSON and names the file in
 * `SELU_TEST_IMAGE`; it applies only to the capability in `dir`.
 */
export interface TestImage {
  /** The capability's directory in the checkout (its tests, manifest and package.json stay there). */
  dir: string;
  /** The image reference, for messages. */
  ref: string;
  /** The image's root filesystem, mounted (podman image mount). */
  rootfs: string;
  /** The image config's Entrypoint, Cmd, WorkingDir and Env (NAME=value), as Selu's runner uses them. */
  entrypoint: string[];
  cmd: string[];
  workdir: string;
  env: string[];
}

/** The port Selu dials; an image's server is not told another one (Selu sets no PORT). */
export const SELU_PORT = 50051;

/**
 * The variables Selu's runner sets in a container (contract section 3), the only ones an image gets,
 * and two that only tests set, which change what the process trusts and says, never what it loads:
 * NODE_EXTRA_CA_CERTS (the test's own CA, for the TLS servers it starts) and LOG_LEVEL (tests read logs).
 */
const SELU_ENV = /^(HTTPS?_PROXY|https?_proxy|SELU_CAPABILITY_ID|SELU_SESSION_ID|SELU_SHARED|NODE_EXTRA_CA_CERTS|LOG_LEVEL)$/;

/** The mounted image the tests should run for `dir`, when `./dev images` set one. */
export function testImageFor(dir: string): TestImage | undefined {
  const file = process.env.SELU_TEST_IMAGE;
  if (!file) return undefined;
  const image = JSON.parse(readFileSync(file, "utf8")) as TestImage;
  return resolve(image.dir) === resolve(dir) ? image : undefined;
}

/** Only Selu's variables out of `env` (see {@link SELU_ENV}). */
export function seluEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && SELU_ENV.test(e[0])));
}

/**
 * bubblewrap arguments that run `image` as Selu's runner would: its root filesystem read-only as `/`,
 * its Entrypoint + Cmd in its WorkingDir as uid:gid 1000:1000, its own ENV plus `env` and nothing
 * else, `/tmp` from `tmp` (a host directory the caller mounted as a fresh noexec tmpfs), `/dev` and
 * `/proc` of its own, its own pid namespace. `binds` are extra host paths shown read-only at the same
 * place (a test CA file).
 */
export function imageCommand(image: TestImage, options: { env: Record<string, string>; tmp: string; binds?: readonly string[]; writable?: readonly { host: string; path: string }[] }): string[] {
  const args = ["bwrap", "--ro-bind", image.rootfs, "/", "--dev", "/dev", "--proc", "/proc", "--bind", options.tmp, "/tmp"];
  args.push("--unshare-user", "--uid", "1000", "--gid", "1000", "--unshare-pid", "--die-with-parent", "--clearenv");
  for (const entry of image.env) {
    const at = entry.indexOf("=");
    if (at > 0) args.push("--setenv", entry.slice(0, at), entry.slice(at + 1));
  }
  for (const [name, value] of Object.entries(options.env)) args.push("--setenv", name, value);
  for (const dir of options.writable ?? []) args.push("--bind", dir.host, dir.path);
  for (const path of options.binds ?? []) args.push("--ro-bind", path, path);
  args.push("--chdir", image.workdir || "/", "--", ...image.entrypoint, ...image.cmd);
  return args;
}

/** Host paths a test shows inside the container: read-only at the same place, or writable (/workspace). */
export interface Mounts {
  readOnly?: readonly string[];
  writable?: readonly { host: string; path: string }[];
}

/**
 * The mounts a test gave its sandbox, read back from the bubblewrap arguments its `wrap` makes
 * ({@link sandboxCommand}'s `readOnly` and `writable`), so the same test runs against an image unchanged.
 * The host root and the checkout, which the checkout sandbox shows, are left out.
 */
export function mountsOf(command: readonly string[]): Mounts {
  // The sandbox may start bwrap from a shell script (to mount its noexec /tmp first): read its quoted words.
  const script = command.find((part) => part.includes("'bwrap'"));
  const wrapped = script ? [...script.matchAll(/'((?:[^']|'\\'')*)'/g)].map((m) => m[1]!.replaceAll("'\\''", "'")) : command;
  const mounts = { readOnly: [] as string[], writable: [] as { host: string; path: string }[] };
  for (let i = 0; i + 2 < wrapped.length && wrapped[i] !== "--"; i++) {
    const [flag, host, path] = [wrapped[i], wrapped[i + 1]!, wrapped[i + 2]!];
    if (flag === "--bind" && path !== "/tmp") mounts.writable.push({ host, path });
    // A top-level entry (/usr, /.dockerenv) is the host's root rebuilt around a missing mount point
    // (sandbox readOnlyRoot): the image brings its own. A test's own mounts sit deeper (/tmp/ca-x).
    else if (flag === "--ro-bind" && host === path && /^\/[^/]+\/./.test(host) && !existsSync(join(host, "pnpm-workspace.yaml"))) mounts.readOnly.push(host);
    else continue;
    i += 2;
  }
  return mounts;
}

/** A command that starts an image's server, and what to remove once it has exited. */
export interface ImageLaunch {
  command: string[];
  cleanup(): void;
}

/**
 * The full command for {@link imageCommand}: Selu's nofile limit of 256 (prlimit), and a fresh 64 MiB
 * tmpfs mounted noexec as the container's /tmp, made in a mount namespace of its own (unshare), so
 * nothing is left mounted on the host when it exits. Needs root, as Selu's runner does.
 */
export function imageLaunch(image: TestImage, env: Record<string, string | undefined>, mounts: Mounts = {}): ImageLaunch {
  const tmp = mkdtempSync(join(tmpdir(), "selu-image-tmp-"));
  const selu = seluEnv(env);
  const binds = [...(mounts.readOnly ?? [])];
  if (selu.NODE_EXTRA_CA_CERTS && !binds.some((b) => selu.NODE_EXTRA_CA_CERTS!.startsWith(`${b}/`) || b === selu.NODE_EXTRA_CA_CERTS)) binds.push(dirname(selu.NODE_EXTRA_CA_CERTS));
  const mountTmp = 'mount -t tmpfs -o size=64m,mode=1777,noexec,nosuid,nodev tmpfs "$1" && shift && exec "$@"';
  const command = [
    "prlimit",
    "--nofile=256:256",
    "unshare",
    "--mount",
    "--propagation",
    "private",
    "sh",
    "-c",
    mountTmp,
    "sh",
    tmp,
    ...imageCommand(image, { env: selu, tmp, binds, writable: mounts.writable ?? [] }),
  ];
  return { command, cleanup: () => rmSync(tmp, { recursive: true, force: true }) };
}
