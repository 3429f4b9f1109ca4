// An independent reader for generated PDFs: poppler-utils and qpdf (scripts/install-test-deps.sh), not
// the libraries that wrote them, so a test sees what a person's PDF viewer would.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function withFile<T>(pdf: Uint8Array, use: (path: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "pdf-check-"));
  try {
    const path = join(dir, "in.pdf");
    writeFileSync(path, pdf);
    return use(path, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface TextOptions {
  first?: number;
  last?: number;
  /** pdftotext -layout: keeps the physical layout (table rows on one line, indentation). */
  layout?: boolean;
}

/** Text of the PDF (or of pages first..last), as pdftotext reads it in reading order. */
export function pdfText(pdf: Uint8Array, options: TextOptions = {}): string {
  return withFile(pdf, (path) => {
    const args = [...(options.first ? ["-f", String(options.first)] : []), ...(options.last ? ["-l", String(options.last)] : []), ...(options.layout ? ["-layout"] : [])];
    return execFileSync("pdftotext", ["-enc", "UTF-8", ...args, path, "-"], { encoding: "utf8" });
  });
}

/** Text of each page, split on the form feeds pdftotext puts between pages. */
export function pdfPageTexts(pdf: Uint8Array, options: Pick<TextOptions, "layout"> = {}): string[] {
  return pdfText(pdf, options).split("\f").slice(0, -1);
}

/** Text with every run of whitespace as one space, for phrases that may wrap. */
export function flat(text: string): string {
  return text.replace(/\s+/g, " ");
}

/** pdfinfo's fields (dates in ISO form), e.g. {Pages: "3", Title: "…", "Page size": "595.28 x 841.89 pts (A4)"}. */
export function pdfInfo(pdf: Uint8Array): Record<string, string> {
  return withFile(pdf, (path) => {
    const out = execFileSync("pdfinfo", ["-isodates", "-enc", "UTF-8", path], { encoding: "utf8" });
    return Object.fromEntries(
      out
        .split("\n")
        .filter((l) => l.includes(":"))
        .map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()]),
    );
  });
}

/** The PDF's XMP metadata packet, as `pdfinfo -meta` prints it. */
export function xmpMetadata(pdf: Uint8Array): string {
  return withFile(pdf, (path) => execFileSync("pdfinfo", ["-meta", path], { encoding: "utf8" }));
}

/** Whether `xml` is well-formed, by libxml2's xmllint (another reader than ours), with its complaint if not. */
export function xmlCheck(xml: string): { ok: boolean; output: string } {
  const res = spawnSync("xmllint", ["--noout", "-"], { input: xml, encoding: "utf8" });
  return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
}

/** The images (type "image") and their soft masks (type "smask") in the PDF, as pdfimages -list reports them. */
export function pdfImages(pdf: Uint8Array): { page: number; width: number; height: number; type: string; enc: string }[] {
  return withFile(pdf, (path) => {
    const out = execFileSync("pdfimages", ["-list", path], { encoding: "utf8" });
    return out
      .split("\n")
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f[2] === "image" || f[2] === "smask")
      .map((f) => ({ page: Number(f[0]), width: Number(f[3]), height: Number(f[4]), type: f[2]!, enc: f[8]! }));
  });
}

/** The fonts the PDF uses, with whether each is embedded (pdffonts). */
export function pdfFonts(pdf: Uint8Array): { name: string; embedded: boolean }[] {
  return withFile(pdf, (path) => {
    const out = execFileSync("pdffonts", [path], { encoding: "utf8" });
    return out
      .split("\n")
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => {
        const f = l.trim().split(/\s+/);
        return { name: f[0]!, embedded: f.at(-5) === "yes" };
      });
  });
}

/** qpdf's structural check: exit 0 (clean) or 3 (warnings only) counts as readable. */
export function qpdfCheck(pdf: Uint8Array): { ok: boolean; output: string } {
  return withFile(pdf, (path) => {
    const res = spawnSync("qpdf", ["--check", path], { encoding: "utf8" });
    return { ok: res.status === 0, output: `${res.stdout}${res.stderr}` };
  });
}

/** A PDF's objects as qpdf reads them (its JSON version 2: `{ "obj:1 0 R": { value } }`, strings as `u:...`). */
export function qpdfObjects(pdf: Uint8Array): Record<string, { value?: unknown }> {
  return withFile(pdf, (path) => {
    const json = JSON.parse(execFileSync("qpdf", ["--json=2", "--json-key=qpdf", path], { encoding: "utf8", maxBuffer: 64 << 20 })) as {
      qpdf: [unknown, Record<string, { value?: unknown }>];
    };
    return json.qpdf[1];
  });
}

/** Encrypts a PDF with qpdf (user password "secret", or the one given: "" opens without one), for the refusal tests. */
export function encryptPdf(pdf: Uint8Array, userPassword = "secret", how: Encryption = "aes-256"): Buffer {
  const [method, bits] = how.split("-") as ["aes" | "rc4", string];
  const options = [...(bits === "256" ? [] : ["--allow-weak-crypto"]), "--encrypt", userPassword, "owner", bits, ...(bits === "128" ? [`--use-aes=${method === "aes" ? "y" : "n"}`] : []), "--"];
  return withFile(pdf, (path, dir) => {
    const out = join(dir, "enc.pdf");
    execFileSync("qpdf", ["--object-streams=generate", ...options, path, out]);
    return readFileSync(out);
  });
}

/** How qpdf encrypts: the standard handler's methods, revision 2 (RC4 40-bit) to 6 (AES-256). */
export type Encryption = "rc4-40" | "rc4-128" | "aes-128" | "aes-256";

/** Renders page `page` as a PNG at `dpi` with pdftoppm. */
export function pagePng(pdf: Uint8Array, page = 1, dpi = 80): Buffer {
  return withFile(pdf, (path, dir) => {
    execFileSync("pdftoppm", ["-png", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile", path, join(dir, "page")]);
    return readFileSync(join(dir, "page.png"));
  });
}

/** Renders page 1 as a JPEG with pdftoppm: a real JPEG file for the image tests, made by another program. */
export function pageJpeg(pdf: Uint8Array, dpi = 40): Buffer {
  return withFile(pdf, (path, dir) => {
    execFileSync("pdftoppm", ["-jpeg", "-r", String(dpi), "-f", "1", "-l", "1", "-singlefile", path, join(dir, "page")]);
    return readFileSync(join(dir, "page.jpg"));
  });
}

/** The pixels of each image (and soft mask) in the PDF, as pdfimages writes them raw: PPM (RGB) or PGM (grey). */
export function pdfImagePixels(pdf: Uint8Array): { width: number; height: number; channels: number; pixels: Buffer }[] {
  return withFile(pdf, (path, dir) => {
    execFileSync("pdfimages", [path, join(dir, "img")]);
    return readdirSync(dir)
      .filter((f) => f.startsWith("img-"))
      .sort()
      .map((f) => {
        const file = readFileSync(join(dir, f));
        const [magic, width, height, , ...rest] = file.toString("latin1").split(/\s+/, 4).concat([""]);
        const header = `${magic}\n${width} ${height}\n255\n`;
        void rest;
        return { width: Number(width), height: Number(height), channels: magic === "P6" ? 3 : 1, pixels: file.subarray(header.length) };
      });
  });
}

/** A word of a page and its box, in points from the page's top left. */
export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  pageHeight: number;
}

/** Every word with its page (from 1) and box in points from the top left, as `pdftotext -bbox` reads them. */
export function pdfWords(pdf: Uint8Array): Word[] {
  return withFile(pdf, (path) => {
    const html = execFileSync("pdftotext", ["-bbox", "-enc", "UTF-8", path, "-"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const words: Word[] = [];
    let page = 0;
    let pageHeight = 0;
    for (const match of html.matchAll(/<page width="[\d.]+" height="([\d.]+)">|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      if (match[1]) {
        page += 1;
        pageHeight = Number(match[1]);
      } else words.push({ page, text: match[6]!, xMin: Number(match[2]), yMin: Number(match[3]), xMax: Number(match[4]), yMax: Number(match[5]), pageHeight });
    }
    return words;
  });
}
