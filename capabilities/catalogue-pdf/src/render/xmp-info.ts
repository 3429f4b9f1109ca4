import { formatIsoTime } from "@selu-catalogue/kit";
import type { Doc } from "./doc.js";

// pdfkit copies the document information into the XMP metadata as it is (MetadataMixin._addInfo, pdfkit
// 0.20): a title such as "R&D <draft>" or an author "Smith & Jones" made the XML malformed, so readers of
// XMP (document management systems, PDF/A checks, exiftool) lost all of it, and a title could add
// elements of its own. It also dated it with toISOString, whose first call reads ICU's time zone data
// into the process (~0.9 MiB). Written here escaped, the same elements, dated from the UTC parts.

/** The parts of pdfkit's document the XMP information is written with (internal, pdfkit 0.20). */
interface InfoWriter {
  info: { CreationDate: Date; Creator?: string; Producer?: string; Title?: string; Author?: string; Subject?: string; Keywords?: string };
  appendXML(xml: string, newline?: boolean): void;
  _addInfo(): void;
}

/** Makes `doc` write its document information into its XMP metadata as well-formed XML. */
export function escapeXmpInfo(doc: Doc): void {
  const writer = doc as unknown as InfoWriter;
  writer._addInfo = () => writer.appendXML(xmpInfo(writer.info));
}

/** The XMP descriptions pdfkit writes for the document information, with every value escaped. */
export function xmpInfo(info: InfoWriter["info"]): string {
  const lines = [
    '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">',
    `<xmp:CreateDate>${formatIsoTime(info.CreationDate).slice(0, 19)}Z</xmp:CreateDate>`,
    `<xmp:CreatorTool>${xmlText(info.Creator)}</xmp:CreatorTool>`,
    "</rdf:Description>",
  ];
  if (info.Title || info.Author || info.Subject) {
    lines.push('<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">');
    if (info.Title) lines.push(`<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.Title)}</rdf:li></rdf:Alt></dc:title>`);
    if (info.Author) lines.push(`<dc:creator><rdf:Seq><rdf:li>${xmlText(info.Author)}</rdf:li></rdf:Seq></dc:creator>`);
    if (info.Subject) lines.push(`<dc:description><rdf:Alt><rdf:li xml:lang="x-default">${xmlText(info.Subject)}</rdf:li></rdf:Alt></dc:description>`);
    lines.push("</rdf:Description>");
  }
  lines.push('<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">', `<pdf:Producer>${xmlText(info.Producer)}</pdf:Producer>`);
  if (info.Keywords) lines.push(`<pdf:Keywords>${xmlText(info.Keywords)}</pdf:Keywords>`);
  lines.push("</rdf:Description>");
  return lines.join("\n");
}

/** Characters XML 1.0 does not allow anywhere (C0 controls but tab and line ends, U+FFFE, U+FFFF, unpaired surrogates). */
const NOT_XML = /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/** `text` as XML character data: markup characters escaped, characters XML cannot hold left out. */
export function xmlText(text = ""): string {
  return text.replace(NOT_XML, "").replace(/[&<>]/g, (char) => ESCAPES[char]!);
}
