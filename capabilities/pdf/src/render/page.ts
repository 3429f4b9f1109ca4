import type PDFDocument from "pdfkit";
import type { Run } from "../document/inline.js";
import { fontKeyFor, type FontKey } from "./fonts.js";

export type Doc = InstanceType<typeof PDFDocument>;

/** Type sizes, colours and spacing of every document (one calm, readable style). */
export const STYLE = {
  margin: { top: 64, bottom: 64, left: 56, right: 56 },
  body: 10.5,
  lineGap: 2.5,
  paragraphGap: 7,
  title: 22,
  subtitle: 13,
  heading: 15,
  small: 8.5,
  code: 9,
  text: "#1f2328",
  muted: "#5f6b7a",
  link: "#0b5cad",
  codeText: "#8a2b16",
  rule: "#d0d7de",
  fill: "#f3f4f6",
  zebra: "#f7f8fa",
  headerFill: "#e6eaef",
} as const;

/** Geometry of the writable area of the current page. */
export function area(doc: Doc): { left: number; width: number; top: number; bottom: number } {
  const { margins, width, height } = doc.page;
  return { left: margins.left, width: width - margins.left - margins.right, top: margins.top, bottom: height - margins.bottom };
}

/** Starts a new page unless `height` points still fit below the current position. */
export function ensureSpace(doc: Doc, height: number): void {
  const { top, bottom } = area(doc);
  if (doc.y + height > bottom && doc.y > top + 0.5) doc.addPage();
}

export interface RunsOptions {
  x: number;
  width: number;
  size: number;
  color?: string;
  align?: "left" | "center" | "right" | "justify";
  lineGap?: number;
}

/**
 * Writes inline runs as one flowing paragraph from (x, doc.y): each run in its face, links underlined and
 * clickable. Options are given on every call because pdfkit carries them over between continued calls.
 */
export function writeRuns(doc: Doc, runs: readonly Run[], options: RunsOptions): void {
  const color = options.color ?? STYLE.text;
  const parts = runs.length > 0 ? runs : [{ text: " ", bold: false, italic: false, code: false }];
  parts.forEach((run, i) => {
    const last = i === parts.length - 1;
    doc.font(fontKeyFor(run)).fontSize(run.code ? options.size * 0.92 : options.size);
    doc.fillColor(run.link ? STYLE.link : run.code ? STYLE.codeText : color);
    const textOptions = {
      width: options.width,
      align: options.align ?? "left",
      lineGap: options.lineGap ?? STYLE.lineGap,
      continued: !last,
      link: run.link ?? null,
      underline: !!run.link,
    } as PDFKit.Mixins.TextOptions;
    if (i === 0) doc.text(run.text, options.x, doc.y, textOptions);
    else doc.text(run.text, textOptions);
  });
  doc.fillColor(STYLE.text);
}

/** The height runs take when written with {@link writeRuns}, measured in the widest face they use. */
export function runsHeight(doc: Doc, runs: readonly Run[], width: number, size: number, lineGap: number = STYLE.lineGap): number {
  const text = runs.map((r) => r.text).join("") || " ";
  const faces = new Set<FontKey>(runs.map((r) => fontKeyFor(r)));
  if (faces.size === 0) faces.add("regular");
  let height = 0;
  for (const face of faces) {
    doc.font(face).fontSize(face.startsWith("mono") ? size * 0.92 : size);
    height = Math.max(height, doc.heightOfString(text, { width, lineGap }));
  }
  return height;
}
