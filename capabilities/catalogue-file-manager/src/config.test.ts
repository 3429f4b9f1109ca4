import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, optionsFromEnv } from "./config.js";

describe("optionsFromEnv", () => {
  it("takes the workspace root from WORKSPACE_ROOT, else Selu's /workspace", () => {
    expect(optionsFromEnv({ WORKSPACE_ROOT: "/data/ws" }).root).toBe("/data/ws");
    expect(optionsFromEnv({}).root).toBe("/workspace");
    expect(optionsFromEnv({ WORKSPACE_ROOT: "" }).root).toBe("/workspace");
  });

  it("reads nothing else from the environment: the bounds stay the defaults", () => {
    const options = optionsFromEnv({ WORKSPACE_ROOT: "/w", MAX_READ_BYTES: "1", QUOTA: "0" });
    expect({ ...options, root: DEFAULT_OPTIONS.root }).toEqual(DEFAULT_OPTIONS);
    expect(Object.isFrozen(DEFAULT_OPTIONS.quotas)).toBe(true);
  });
});
