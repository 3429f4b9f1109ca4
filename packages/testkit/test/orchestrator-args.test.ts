import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Orchestrator } from "../src/orchestrator/index.js";
import { rawCapability, type RawCapability } from "./fixtures/raw-server.js";

const schema = {
  type: "object",
  properties: {
    to: { type: "string" },
    subject: { type: "string" },
    count: { type: "integer" },
    ratio: { type: "number" },
    either: { type: ["string", "integer"] },
    nothing: { type: "null" },
    list: { type: "array", items: { type: "integer" } },
  },
  required: ["to"],
};
const manifest = {
  id: "mail",
  tools: [{ name: "send", input_schema: schema }],
  credentials: [
    { name: "PASSWORD", scope: "user" as const },
    { name: "API_KEY", scope: "system" as const },
    { name: "SIGNATURE", scope: "user" as const, required: false },
  ],
};

let raw: RawCapability;
beforeAll(async () => {
  raw = await rawCapability((req) => ({ resultJson: req.argsJson }));
});
afterAll(() => raw.close());

async function double(credentials: Record<string, string> = { PASSWORD: "pw", API_KEY: "key" }) {
  const orch = new Orchestrator({ credentials: { mail: credentials } });
  await orch.install(manifest, raw.address);
  return orch;
}
const validation = (problem: string) => `Tool argument validation failed for 'mail__send': ${problem}. Regenerate this tool call with a valid argument shape.`;

describe("Selu's schema check before dispatch", () => {
  let orch: Orchestrator;
  beforeAll(async () => (orch = await double()));
  afterAll(() => orch.close());

  it("counts null as missing for a required field", async () => {
    expect(await orch.call("mail__send", { to: null })).toEqual({ ok: false, error: validation("$.to is required") });
  });

  it("dispatches null values of optional fields unchecked: {subject: null} reaches the capability", async () => {
    const out = await orch.call("mail__send", { to: "a@example.com", subject: null, count: null });
    expect(out.ok && out.text).toBe('{"count":null,"subject":null,"to":"a@example.com"}');
  });

  it("does not check type arrays or the type null", async () => {
    const out = await orch.call("mail__send", { to: "a", either: true, nothing: "not null" });
    expect(out.ok).toBe(true);
  });

  it("does not take 3.0 for an integer when the model writes it", async () => {
    expect(await orch.call("mail__send", '{"to":"a","count":3.0}')).toEqual({ ok: false, error: validation("$.count expected integer") });
    expect(await orch.call("mail__send", '{"to":"a","list":[1,2e0]}')).toEqual({ ok: false, error: validation("$.list[1] expected integer") });
    expect((await orch.call("mail__send", '{"to":"a","count":3}')).ok).toBe(true);
  });

  it("re-serialises the arguments with keys sorted, a float staying a float", async () => {
    const out = await orch.call("mail__send", '{"to":"a","ratio":2.0,"count":1,"_approval_message":"Send it?"}');
    expect(out.ok && out.text).toBe('{"count":1,"ratio":2.0,"to":"a"}');
  });

  it("strips _approval_message and _approval_message_i18n before dispatch", async () => {
    const out = await orch.call("mail__send", { to: "a", _approval_message: "ok?", _approval_message_i18n: { de: "ok?" } });
    expect(out.ok && out.text).toBe('{"to":"a"}');
  });

  it("reports the first problem in key order, like serde_json's sorted map", async () => {
    expect(await orch.call("mail__send", { to: "a", subject: 1, count: "x" })).toEqual({ ok: false, error: validation("$.count expected integer") });
  });
});

describe("credentials", () => {
  it("sends exactly the declared credentials that are set, leaving out an optional one unset", async () => {
    const orch = await double({ PASSWORD: "pw", API_KEY: "key", UNDECLARED: "x" });
    await orch.call("mail__send", { to: "a" });
    expect(JSON.parse(raw.calls.at(-1)!.configJson.toString())).toEqual({ API_KEY: "key", PASSWORD: "pw" });
    await orch.close();
  });

  it("refuses a call whose required user credential is unset before the container, telling the user how to set it", async () => {
    const orch = await double({ API_KEY: "key" });
    const before = raw.calls.length;
    expect(await orch.call("mail__send", { to: "a" })).toEqual({
      ok: false,
      error: "Tool error: I need your PASSWORD for mail before I can do this. Please set it with: /set-credential mail PASSWORD <value>",
    });
    expect(raw.calls.length).toBe(before);
    await orch.close();
  });

  it("refuses a call whose required system credential is unset with the administrator's message", async () => {
    const orch = await double({ PASSWORD: "pw" });
    const before = raw.calls.length;
    expect(await orch.call("mail__send", { to: "a" })).toEqual({
      ok: false,
      error: "Tool error: System credential 'API_KEY' for capability 'mail' is not configured. An administrator must set it via the credentials API.",
    });
    expect(raw.calls.length).toBe(before);
    await orch.close();
  });
});
