import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as fontkit from "fontkit";
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef } from "pdf-lib";

/** A glyph drawn in a PDF: the outline of the embedded glyph (an SVG path), in drawing order. */
export interface DrawnRun {
  font: string;
  outlines: string[];
}

/**
 * The glyph runs drawn on page 1, read from the content stream (`Tf` and `TJ` operators) and the embedded
 * font programs: each drawn code mapped to its glyph by the font's CIDToGIDMap, and each glyph given as
 * its outline, so it can be compared with a glyph of the original font whatever number the subset gave it.
 */
export async function drawnRuns(pdf: Uint8Array): Promise<DrawnRun[]> {
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0).node;
  const resources = page.Resources()!;
  const fontDicts = resources.lookup(PDFName.of("Font"), PDFDict);
  const fonts = new Map<string, { name: string; font: fontkit.Font; gid: (cid: number) => number }>();
  for (const [key, ref] of fontDicts.entries()) {
    const type0 = doc.context.lookup(ref, PDFDict);
    const cid = doc.context.lookup(type0.lookup(PDFName.of("DescendantFonts"), PDFArray).get(0), PDFDict);
    const descriptor = cid.lookup(PDFName.of("FontDescriptor"), PDFDict);
    const file = descriptor.lookup(PDFName.of("FontFile2")) as PDFRawStream;
    const map = cid.lookup(PDFName.of("CIDToGIDMap"));
    const gids = map instanceof PDFRawStream ? decoded(map) : undefined;
    fonts.set(key.asString(), {
      name: String(descriptor.lookup(PDFName.of("FontName"))),
      font: fontkit.create(decoded(file)) as fontkit.Font,
      gid: (code) => (gids ? gids.readUInt16BE(code * 2) : code),
    });
  }
  const contents = page.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r as PDFRef) as PDFRawStream) : [contents as unknown as PDFRawStream];
  const text = streams.map((s) => decoded(s).toString("latin1")).join("\n");
  const runs: DrawnRun[] = [];
  let current: { name: string; font: fontkit.Font; gid: (cid: number) => number } | undefined;
  // One run per text object (BT … ET): pdfkit starts a new TJ for a glyph it moves off the baseline.
  for (const block of text.matchAll(/BT\n([\s\S]*?)\nET/g)) {
    let ids: number[] = [];
    for (const match of block[1]!.matchAll(/(\/\S+) [\d.]+ Tf|\[([^\]]*)\] TJ/g)) {
      if (match[1]) current = fonts.get(match[1]);
      else ids = ids.concat([...match[2]!.matchAll(/<([0-9a-f]+)>/g)].flatMap((m) => m[1]!.match(/.{4}/g)!.map((h) => Number.parseInt(h, 16))));
    }
    if (current && ids.length > 0) runs.push({ font: current.name, outlines: ids.map((id) => current!.font.getGlyph(current!.gid(id)).path.toSVG()) });
  }
  return runs;
}

/** The content stream of page 1, decoded, as text. */
export async function pageContent(pdf: Uint8Array, page = 0): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  const contents = doc.getPage(page).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r as PDFRef) as PDFRawStream) : [contents as unknown as PDFRawStream];
  return streams.map((s) => decoded(s).toString("latin1")).join("\n");
}

/** A stream's bytes, through its filters if it names any (short streams are written as they are). */
const decoded = (stream: PDFRawStream) => Buffer.from(decodePDFRawStream(stream).decode());

/** The outlines of the glyphs Debian's hb-shape (an independent HarfBuzz) picks for `text` in `fontBytes`, default ignorables removed. */
export function hbShapeOutlines(fontBytes: Buffer, text: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "hb-shape-"));
  try {
    const path = join(dir, "font.ttf");
    writeFileSync(path, fontBytes);
    // As the capability shapes: joiners and variation selectors leave no glyph behind.
    const out = execFileSync("hb-shape", ["--no-glyph-names", "--no-positions", "--no-clusters", "--remove-default-ignorables", path, text], { encoding: "utf8" });
    const font = fontkit.create(readFileSync(path)) as fontkit.Font;
    return out
      .trim()
      .replace(/^\[|\]$/g, "")
      .split("|")
      .map((id) => font.getGlyph(Number(id)).path.toSVG());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
