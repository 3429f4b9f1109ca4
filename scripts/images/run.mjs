// `./dev images` (issue 13): builds every capability's image (capabilities/*/) with podman, against a
// stand-in base where no registry can be reached, then runs the capability's conformance suite
// (test/conformance.test.ts; with --e2e all of its test/) against the image itself: its filesystem mounted, its Entrypoint,
// Cmd and WorkingDir, uid 1000, read-only root, a fresh noexec /tmp, Selu's environment only, dialled on
// port 50051 (the testkit's image mode, SELU_TEST_IMAGE). Capabilities run one after another, so 50051
// is free for each. Prints each image's app layer (the image less its base). Each image is tagged with
// its manifest's `image` too, and recorded in .cache/images/built/<id>.json; at the end the registry's
// install test checks that every image the marketplace names resolves to an image built here with the
// labels its Dockerfile sets (SELU_IMAGES_BUILT names this run's images, which must pass).
//   ./dev images [id ...]      build and test all capabilities, or the ones named
//   ./dev images --e2e         also the capability's end-to-end tests (all of test/) against the image
//   ./dev images --build-only  build without testing (what pull requests on GitHub do with buildx)
// Environment: SELU_STORAGE_DRIVER (overlay, else vfs), SELU_PODMAN_ROOT (container storage).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parse } from "yaml";
import { capabilityDirs, NODE_IMAGE } from "../dockerfile.mjs";

const root = resolve(import.meta.dirname, "../..");
const { values, positionals } = parseArgs({ allowPositionals: true, options: { "build-only": { type: "boolean", default: false }, e2e: { type: "boolean", default: false } } });
const logs = join(root, ".cache/images/logs");
const records = join(root, ".cache/images/built");
mkdirSync(logs, { recursive: true });
mkdirSync(records, { recursive: true });

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: "utf8", maxBuffer: 64 << 20, ...opts })?.trim() ?? "";
const step = (text) => process.stderr.write(`images: ${text}\n`);

run("bash", [join(root, "scripts/images/install-tools.sh")], { stdio: "inherit" });
const driver = process.env.SELU_STORAGE_DRIVER ?? (overlayWorks() ? "overlay" : "vfs");
const storage = process.env.SELU_PODMAN_ROOT ?? `/var/lib/containers/selu-catalogue-${driver}`;
const podmanArgs = ["--root", storage, "--storage-driver", driver];
const podman = (args, opts) => run("podman", [...podmanArgs, ...args], opts);
const env = { ...process.env, SELU_STORAGE_DRIVER: driver, SELU_PODMAN_ROOT: storage };

const started = Date.now();
run("node", [join(root, "scripts/dockerfile.mjs"), "--check"], { stdio: "inherit" });
run("bash", [join(root, "scripts/images/stand-in-base.sh"), NODE_IMAGE], { stdio: "inherit", env });
const baseSize = Number(podman(["image", "inspect", "--format", "{{.Size}}", `docker.io/library/${NODE_IMAGE}`]));

const dirs = capabilityDirs().filter((d) => positionals.length === 0 || positionals.includes(basename(d)));
const results = [];
for (const dir of dirs) {
  const { id, image } = parse(readFileSync(join(dir, "manifest.yaml"), "utf8"));
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const ref = `localhost/selu-cap-${id}:${pkg.version}`;
  const result = { id, ref, buildS: 0, appMB: NaN, tests: "not run" };
  results.push(result);
  // A failed build leaves no record, so the registry's check can't mistake an older image for this one.
  rmSync(join(records, `${id}.json`), { force: true });
  const t0 = Date.now();
  step(`building ${ref} (log: .cache/images/logs/${id}.log)`);
  const certs = "/etc/ssl/certs/ca-certificates.crt";
  const build = spawnSync(
    "podman",
    [
      ...podmanArgs,
      "build",
      "--isolation",
      "chroot",
      "--network",
      "host",
      "--layers",
      // The builder's trust store, for a network whose TLS goes through its own CA (as here).
      "-v",
      "/etc/ssl/certs:/etc/ssl/certs:ro",
      "--build-arg",
      `NODE_EXTRA_CA_CERTS=${certs}`,
      "-f",
      join(dir, "Dockerfile"),
      "-t",
      ref,
      // The reference Selu's runner uses (the manifest's image): what the registry's check resolves.
      "-t",
      image,
      root,
    ],
    { encoding: "utf8", maxBuffer: 256 << 20 },
  );
  writeFileSync(join(logs, `${id}.log`), `${build.stdout}\n${build.stderr}`);
  result.buildS = Math.round((Date.now() - t0) / 1000);
  if (build.status !== 0) {
    result.tests = "build failed";
    process.stderr.write(`${build.stderr.split("\n").slice(-30).join("\n")}\n`);
    continue;
  }
  result.appMB = (Number(podman(["image", "inspect", "--format", "{{.Size}}", ref])) - baseSize) / 1e6;
  const record = { id, image, ref, imageId: podman(["image", "inspect", "--format", "{{.Id}}", ref]), storage, driver, builtAt: new Date().toISOString() };
  writeFileSync(join(records, `${id}.json`), `${JSON.stringify(record, null, 2)}\n`);
  if (values["build-only"]) continue;
  result.tests = testImage(dir, ref, pkg.name) ? "passed" : "failed";
}

const built = results.filter((r) => Number.isFinite(r.appMB)).map((r) => r.id);
const registry = built.length === 0 ? "not run" : checkRegistry(built) ? "passed" : "failed";

step(`done in ${Math.round((Date.now() - started) / 1000)} s (storage: ${driver} in ${storage})`);
process.stdout.write("image                               build s  app layer MB  tests\n");
for (const r of results) process.stdout.write(`${r.ref.padEnd(36)}${String(r.buildS).padStart(7)}  ${r.appMB.toFixed(1).padStart(12)}  ${r.tests}\n`);
process.stdout.write(`marketplace images (manifest image built, labels match): ${registry}\n`);
if (results.some((r) => r.tests !== "passed" && !(values["build-only"] && r.tests === "not run")) || registry === "failed") process.exit(1);

/** The registry's install test, which now also resolves each manifest image built in this run; true when it passes. */
function checkRegistry(ids) {
  step(`checking the marketplace's images against this run's builds: ${ids.join(", ")}`);
  const check = spawnSync(join(root, ".tools/node_modules/.bin/pnpm"), ["--filter", "@selu-catalogue/registry", "exec", "vitest", "run", "test/install.test.ts"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, SELU_IMAGES_BUILT: ids.join(",") },
  });
  return check.status === 0;
}

/** Mounts `ref` and runs the capability's conformance suite (or all of test/) against it; true when they pass. */
function testImage(dir, ref, name) {
  const inspect = JSON.parse(podman(["image", "inspect", ref]))[0];
  const config = inspect.Config ?? {};
  if (config.User !== "1000:1000") {
    process.stderr.write(`images: ${ref} runs as ${JSON.stringify(config.User)}, not 1000:1000 as Selu's runner does\n`);
    return false;
  }
  const rootfs = podman(["image", "mount", ref]);
  const tmp = mkdtempSync(join(tmpdir(), "selu-image-"));
  try {
    const image = { dir, ref, rootfs, entrypoint: config.Entrypoint ?? [], cmd: config.Cmd ?? [], workdir: config.WorkingDir ?? "/", env: config.Env ?? [] };
    writeFileSync(join(tmp, "image.json"), JSON.stringify(image));
    // Read the runtime and the app once, as a host that has just pulled the image has them in its page
    // cache: otherwise the first start pays for reading a freshly written layer from disk, and the
    // conformance suite's 2 s readiness check measures the disk instead of the capability.
    spawnSync("sh", ["-c", 'tar -C "$0" -cf - app usr/local/bin | cat >/dev/null', rootfs], { stdio: "ignore" });
    const files = values.e2e ? ["test/"] : ["test/conformance.test.ts"];
    step(`testing ${ref}: ${files.join(" ")} against the mounted image, port 50051`);
    // One file at a time: every file's server listens on 50051. A longer default timeout than the
    // checkout's: the image builds share the machine, and a test's own timeouts still apply.
    const tests = spawnSync(join(root, ".tools/node_modules/.bin/pnpm"), ["--filter", name, "exec", "vitest", "run", ...files, "--no-file-parallelism", "--testTimeout=60000"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, SELU_TEST_IMAGE: join(tmp, "image.json") },
    });
    return tests.status === 0;
  } finally {
    podman(["image", "unmount", ref]);
    rmSync(tmp, { recursive: true, force: true });
  }
}

function overlayWorks() {
  const probe = spawnSync("podman", ["--root", "/var/lib/containers/selu-catalogue-overlay", "--storage-driver", "overlay", "info"], { stdio: "ignore" });
  return probe.status === 0;
}
