import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hasBubblewrap } from "./sandbox.js";
import { imageLaunch, mountsOf, seluEnv, testImageFor, type TestImage } from "./image.js";
import { sandboxCommand } from "./sandbox.js";

// The host's own root stands in for a mounted image: what matters is how it is run.
const asRoot = process.getuid?.() === 0 && hasBubblewrap();
const image = (cmd: string[]): TestImage => ({ dir: "/nowhere", ref: "host", rootfs: "/", entrypoint: ["sh", "-c"], cmd, workdir: "/usr", env: ["FROM_IMAGE=1"] });
const runIn = (img: TestImage, env: Record<string, string>, mounts = {}) => {
  const launch = imageLaunch(img, env, mounts);
  try {
    return execFileSync(launch.command[0]!, launch.command.slice(1), { encoding: "utf8", env: { ...process.env, LEAK: "host" } });
  } finally {
    launch.cleanup();
  }
};
const temp = mkdtempSync(join(tmpdir(), "image-test-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe.skipIf(!asRoot)("imageLaunch", () => {
  it("runs the image's command in its WORKDIR as uid 1000 with nofile 256", () => {
    expect(runIn(image(["id -u; id -g; pwd; ulimit -n"]), {}).split("\n")).toEqual(["1000", "1000", "/usr", "256", ""]);
  });

  it("gives a fresh 64 MiB /tmp mounted noexec and a read-only root", () => {
    const out = runIn(image(["grep ' /tmp ' /proc/mounts; ls -A /tmp | wc -l; touch /usr/x 2>/dev/null || echo read-only"]), {});
    expect(out).toMatch(/^tmpfs \/tmp tmpfs \S*noexec\S*size=65536k/);
    expect(out).toContain("\n0\nread-only\n");
  });

  it("passes the image's ENV and Selu's variables only, not the host's", () => {
    const env = { HTTPS_PROXY: "http://selu:t@proxy:8888", SELU_SHARED: "true", PORT: "1", SECRET: "x" };
    const names = runIn(image(["env | cut -d= -f1 | sort"]), env)
      .trim()
      .split("\n");
    expect(names.filter((n) => n !== "PWD")).toEqual(["FROM_IMAGE", "HTTPS_PROXY", "SELU_SHARED"]);
  });
});

describe.skipIf(!asRoot)("imageLaunch with a test's mounts", () => {
  it("shows the sandbox's read-only files and writable directories inside the image", () => {
    const ca = join(temp, "ca");
    const workspace = join(temp, "workspace");
    execFileSync("mkdir", ["-p", ca, workspace]);
    writeFileSync(join(ca, "ca.pem"), "pem");
    const mounts = mountsOf(sandboxCommand(["true"], { readOnly: [ca], writable: [{ host: workspace, path: "/mnt" }] }));
    expect(mounts).toEqual({ readOnly: [ca], writable: [{ host: workspace, path: "/mnt" }] });
    // An image has /workspace; the host root standing in for one has /mnt.
    const out = runIn(image([`cat ${ca}/ca.pem; echo; echo hi > /mnt/f && echo wrote`]), {}, mounts);
    expect(out).toBe("pem\nwrote\n");
  });
});

describe("mountsOf", () => {
  it("keeps a test's mounts but not the host root the sandbox rebuilds around a missing /workspace", () => {
    const ca = join(temp, "ca-root");
    const workspace = join(temp, "workspace-root");
    execFileSync("mkdir", ["-p", ca, workspace]);
    const command = sandboxCommand(["true"], { readOnly: [ca], writable: [{ host: workspace, path: "/workspace-not-on-this-host" }] });
    expect(mountsOf(command)).toEqual({ readOnly: [ca], writable: [{ host: workspace, path: "/workspace-not-on-this-host" }] });
  });
});

describe("seluEnv", () => {
  it("keeps the proxy variables, SELU_*, a test CA and the log level, and drops everything else", () => {
    const env = {
      HTTP_PROXY: "a",
      https_proxy: "b",
      SELU_CAPABILITY_ID: "c",
      SELU_SESSION_ID: "d",
      NODE_EXTRA_CA_CERTS: "/t/ca.pem",
      PORT: "1",
      LOG_LEVEL: "debug",
      PATH: "/bin",
      NODE_OPTIONS: "-r x",
    };
    expect(Object.keys(seluEnv(env)).sort()).toEqual(["HTTP_PROXY", "LOG_LEVEL", "NODE_EXTRA_CA_CERTS", "SELU_CAPABILITY_ID", "SELU_SESSION_ID", "https_proxy"]);
  });
});

describe("testImageFor", () => {
  it("applies SELU_TEST_IMAGE only to the capability it names", () => {
    const file = join(temp, "image.json");
    writeFileSync(file, JSON.stringify(image([])));
    const saved = process.env.SELU_TEST_IMAGE;
    process.env.SELU_TEST_IMAGE = file;
    try {
      expect(testImageFor("/nowhere/")?.ref).toBe("host");
      expect(testImageFor("/elsewhere")).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.SELU_TEST_IMAGE;
      else process.env.SELU_TEST_IMAGE = saved;
    }
  });
});
