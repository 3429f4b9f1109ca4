import { describe, expect, it } from "vitest";
import { SendGate } from "./send-gate.js";

const never = new AbortController().signal;

describe("SendGate", () => {
  it("runs one at a time, in arrival order", async () => {
    const gate = new SendGate(1);
    const order: string[] = [];
    let release!: () => void;
    const first = gate.run(never, async () => {
      order.push("a start");
      await new Promise<void>((r) => (release = r));
      order.push("a end");
    });
    const second = gate.run(never, async () => void order.push("b"));
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(["a start"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["a start", "a end", "b"]);
  });

  it("stops waiting when the call is cancelled, and frees no slot it never held", async () => {
    const gate = new SendGate(1);
    let release!: () => void;
    const holder = gate.run(never, () => new Promise<void>((r) => (release = r)));
    const controller = new AbortController();
    const waiting = gate.run(controller.signal, async () => "ran");
    controller.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    release();
    await holder;
    expect(await gate.run(never, async () => "next")).toBe("next");
  });

  it("frees the slot when the work fails", async () => {
    const gate = new SendGate(1);
    await expect(gate.run(never, async () => Promise.reject(new Error("smtp down")))).rejects.toThrow("smtp down");
    expect(await gate.run(never, async () => "ok")).toBe("ok");
  });
});
