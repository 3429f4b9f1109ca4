import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../src/test-fixtures.js";

// What ./dev does before any task: install when the workspace changed. Run against a stand-in pnpm that
// records its calls, in a temp tree shaped like the repository.
describe("scripts/bootstrap.sh", () => {
  function tree(): { root: string; installs: () => number } {
    const root = mkdtempSync(join(tmpdir(), "bootstrap-"));
    const script = readFileSync(join(REPO_ROOT, "scripts", "bootstrap.sh"), "utf8");
    const node = /NODE_VERSION=(\S+)/.exec(script)![1];
    const pnpm = /PNPM_VERSION=(\S+)/.exec(script)![1];
    mkdirSync(join(root, "scripts"));
    copyFileSync(join(REPO_ROOT, "scripts", "bootstrap.sh"), join(root, "scripts", "bootstrap.sh"));
    mkdirSync(join(root, ".tools", "node_modules", ".bin"), { recursive: true });
    writeFileSync(join(root, ".tools", `.stamp-${node}-${pnpm}`), "");
    const fake = join(root, ".tools", "node_modules", ".bin", "pnpm");
    writeFileSync(fake, `#!/bin/sh\nmkdir -p node_modules && echo "$@" >> "${root}/pnpm-calls"\n`);
    chmodSync(fake, 0o755);
    for (const [path, text] of Object.entries({ "pnpm-lock.yaml": "lockfileVersion: '9.0'\n", "pnpm-workspace.yaml": "", "package.json": "{}", "packages/kit/package.json": "{}" })) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    const installs = () => (existsSync(join(root, "pnpm-calls")) ? readFileSync(join(root, "pnpm-calls"), "utf8").trim().split("\n").length : 0);
    return { root, installs };
  }
  const bootstrap = (root: string) => execFileSync("bash", [join(root, "scripts", "bootstrap.sh")], { stdio: "pipe", env: { ...process.env, CI: "" } });

  it("installs once, then skips while nothing changed", () => {
    const { root, installs } = tree();
    bootstrap(root);
    bootstrap(root);
    expect(installs()).toBe(1);
  });

  it("installs again when a workspace package is added, though the lockfile is unchanged", () => {
    const { root, installs } = tree();
    bootstrap(root);
    mkdirSync(join(root, "capabilities", "new-one"), { recursive: true });
    writeFileSync(join(root, "capabilities", "new-one", "package.json"), '{"name":"@selu-catalogue/new-one"}');
    bootstrap(root);
    expect(installs()).toBe(2);
  });
});

describe("workspace commands", () => {
  it.each(["manifest", "registry"])("packages/%s links its bin to a committed file, not to dist/ (which a fresh checkout lacks)", (name) => {
    const dir = join(REPO_ROOT, "packages", name);
    const bins = Object.values((JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { bin: Record<string, string> }).bin);
    for (const bin of bins) {
      expect(bin).not.toMatch(/dist\//);
      expect(readFileSync(join(dir, bin), "utf8")).toMatch(/^#!\/usr\/bin\/env node\n/);
    }
  });
});
