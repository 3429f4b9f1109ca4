import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "./cli.js";
import { capabilityFiles, tempTree } from "./test-fixtures.js";

function run(argv: string[], cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  return main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, cwd).then((status) => ({ status, out, err }));
}

describe("selu-registry", () => {
  it("takes its options after a -- as pnpm run passes them", async () => {
    const root = tempTree({ ...capabilityFiles("notes"), "pnpm-workspace.yaml": "" });
    const out = join(root, "site");
    const { status } = await run(["build", "--", "--out", out, "--base-url", "https://x.test/r"], root);
    expect(status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "marketplace.json"), "utf8")).agents[0].archive_url).toBe("https://x.test/r/notes-1.2.3.tar.gz");
    expect(existsSync(join(out, "notes-1.2.3.tar.gz"))).toBe(true);
    expect(existsSync(join(root, "registry", "catalogue.json"))).toBe(true);
  });

  it("refuses --out without --base-url", async () => {
    const { status, err } = await run(["build", "--out", "x"], tempTree({ ...capabilityFiles("notes"), "pnpm-workspace.yaml": "" }));
    expect(status).toBe(2);
    expect(err[0]).toMatch(/--out and --base-url go together/);
  });

  it("refuses a base URL that is not http(s)", async () => {
    const { status, err } = await run(["build", "--out", "x", "--base-url", "ftp://x"], tempTree({ ...capabilityFiles("notes"), "pnpm-workspace.yaml": "" }));
    expect(status).toBe(2);
    expect(err[0]).toMatch(/--base-url "ftp:\/\/x": expected an http\(s\) URL/);
  });

  it("check fails on a stale registry folder and passes after build", async () => {
    const root = tempTree({ ...capabilityFiles("notes"), "pnpm-workspace.yaml": "" });
    expect((await run(["check"], root)).out).toContain("registry/catalogue.json: stale; run `./dev registry:build` and commit the result");
    await run(["build"], root);
    expect(await run(["check"], root)).toMatchObject({ status: 0, out: ["registry: 1 capabilities OK"] });
  });
});
