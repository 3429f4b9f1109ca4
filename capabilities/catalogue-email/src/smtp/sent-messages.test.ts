import { describe, expect, it } from "vitest";
import { SentMessages } from "./sent-messages.js";

describe("SentMessages", () => {
  it("runs a send once and answers repeats with the first result", async () => {
    const sent = new SentMessages<string>({ windowMs: 1000 });
    let sends = 0;
    const send = async () => `id-${++sends}`;
    expect(await sent.once("k", send)).toMatchObject({ result: "id-1", duplicate: false });
    expect(await sent.once("k", send)).toMatchObject({ result: "id-1", duplicate: true });
    expect(sends).toBe(1);
  });

  it("tells a concurrent repeat in words when the send in flight is cancelled", async () => {
    const sent = new SentMessages<string>({ windowMs: 1000 });
    let fail!: (err: unknown) => void;
    const first = sent.once("k", () => new Promise<string>((_, reject) => (fail = reject)));
    const second = sent.once("k", async () => "other");
    fail(new DOMException("This operation was aborted", "AbortError"));
    await expect(first).rejects.toThrow("aborted");
    await expect(second).rejects.toThrow(/^an identical send_email call was still running and did not finish/);
  });

  it("makes a concurrent repeat wait for the send in flight", async () => {
    const sent = new SentMessages<string>({ windowMs: 1000 });
    let release!: (v: string) => void;
    let sends = 0;
    const first = sent.once("k", () => (sends++, new Promise<string>((r) => (release = r))));
    const second = sent.once("k", async () => (sends++, "other"));
    release("id-1");
    expect(await first).toMatchObject({ result: "id-1", duplicate: false });
    expect(await second).toMatchObject({ result: "id-1", duplicate: true });
    expect(sends).toBe(1);
  });

  it("forgets a failed send so it can be retried", async () => {
    const sent = new SentMessages<string>({ windowMs: 1000 });
    await expect(sent.once("k", async () => Promise.reject(new Error("connection lost")))).rejects.toThrow("connection lost");
    expect(await sent.once("k", async () => "id-2")).toMatchObject({ result: "id-2", duplicate: false });
  });

  it("sends again after the window", async () => {
    let now = 0;
    const sent = new SentMessages<string>({ windowMs: 1000, now: () => now });
    await sent.once("k", async () => "id-1");
    now = 1001;
    expect(await sent.once("k", async () => "id-2")).toMatchObject({ result: "id-2", duplicate: false });
  });

  it("stays bounded, dropping the oldest", async () => {
    const sent = new SentMessages<string>({ windowMs: 60_000, max: 2 });
    for (const key of ["a", "b", "c"]) await sent.once(key, async () => key);
    expect((await sent.once("a", async () => "a2")).duplicate).toBe(false);
    expect((await sent.once("c", async () => "c2")).duplicate).toBe(true);
  });
});
