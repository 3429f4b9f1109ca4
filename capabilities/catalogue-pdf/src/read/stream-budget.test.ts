import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { deflateRepeated, pdfFile, streamObject } from "@selu-catalogue/testkit/hostile";
import { censusStreams } from "./stream-budget.js";

const MiB = 1024 * 1024;
const input = (bytes: Buffer) => ({ field: "attachments[0]", filename: "x.pdf", bytes });
const census = (bytes: Buffer) => censusStreams(input(bytes), new AbortController().signal);
const tooBig = /^attachments\[0\] \(x\.pdf\): a stream decodes to more than 16 MiB/;

describe("censusStreams", () => {
  it("counts what ordinary streams decode to", async () => {
    const data = deflateSync(Buffer.from("BT (hello) Tj ET"));
    expect(await census(pdfFile([streamObject("/Filter /FlateDecode", data)]))).toMatchObject({ streams: 1, decodedBytes: 16 });
  });

  it("measures a bomb whatever its /Length says", async () => {
    const bomb = await deflateRepeated(" ", 20 * MiB);
    const lying = Buffer.concat([Buffer.from("<< /Filter /FlateDecode /Length 10 >>\nstream\n"), bomb, Buffer.from("\nendstream")]);
    await expect(census(pdfFile([lying]))).rejects.toThrow(tooBig);
  });

  it("counts what a damaged bomb decodes to before the damage, as a reader would", async () => {
    const bomb = await deflateRepeated(" ", 20 * MiB);
    const damaged = Buffer.concat([bomb.subarray(0, bomb.length - 16), Buffer.alloc(16, 0xff)]);
    await expect(census(pdfFile([streamObject("/Filter /FlateDecode", damaged)]))).rejects.toThrow(tooBig);
  });

  it("follows filter chains, abbreviations, #-escaped names and filters given by reference", async () => {
    const inner = await deflateRepeated(" ", 20 * MiB);
    const twice = deflateSync(inner);
    await expect(census(pdfFile([streamObject("/Filter [/FlateDecode /Fl]", twice)]))).rejects.toThrow(tooBig);
    await expect(census(pdfFile([streamObject("/Filter /Flate#44ecode", inner)]))).rejects.toThrow(tooBig);
    await expect(census(pdfFile([streamObject("/Filter 2 0 R", inner), "/FlateDecode"]))).rejects.toThrow(tooBig);
    const a85 = Buffer.from(`${ascii85(inner)}~>`, "latin1");
    await expect(census(pdfFile([streamObject("/Filter [/ASCII85Decode /FlateDecode]", a85)]))).rejects.toThrow(tooBig);
  });

  it("guesses deflate when the filter can't be seen (inside an object stream)", async () => {
    const inner = await deflateRepeated(" ", 20 * MiB);
    await expect(census(pdfFile([streamObject("/Filter 9 0 R", inner)]))).rejects.toThrow(tooBig);
  });

  it("bounds all streams together", async () => {
    const piece = await deflateRepeated(" ", 15 * MiB);
    const bodies = Array.from({ length: 5 }, () => streamObject("/Filter /FlateDecode", piece));
    await expect(census(pdfFile(bodies))).rejects.toThrow(/its streams decode to more than 64 MiB in all/);
  });
});

function ascii85(bytes: Buffer): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 4) {
    const chunk = Buffer.alloc(4);
    bytes.copy(chunk, 0, i, i + 4);
    let value = chunk.readUInt32BE(0);
    const digits: string[] = [];
    for (let k = 0; k < 5; k++) {
      digits.unshift(String.fromCharCode(33 + (value % 85)));
      value = Math.floor(value / 85);
    }
    out += digits.slice(0, Math.min(5, bytes.length - i + 1)).join("");
  }
  return out;
}
