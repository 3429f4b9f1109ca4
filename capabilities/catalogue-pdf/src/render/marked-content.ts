import type { Doc } from "./doc.js";

// pdfkit's markStructureContent and markContent (MarkingsMixin, pdfkit 0.20) copy their options, walk the
// page's open markings with a callback, build a dictionary and convert it to write `/P <</MCID 3>> BDC`:
// a report's table cells marked 2,900 times allocated ~2.3 MB that way. These write the same operators and
// record the same markings (pdfkit reads them back to continue marked content on a new page).

/** pdfkit's record of marked content open on a page. */
interface Marking {
  tag: string;
  options: Record<string, unknown>;
  structContent?: unknown;
}

/** The parts of pdfkit's document marking uses (internal, pdfkit 0.20). */
interface Marker {
  page: { markings: Marking[]; dictionary: unknown; structParentTreeKey: number };
  getStructParentTree(): { get(key: number): unknown[] };
  addContent(data: string): unknown;
  endMarkedContent(): unknown;
  markStructureContent(tag: string): unknown;
}

/** pdfkit's PDFStructureContent, which it does not export: taken from the first content it marks. */
type ContentClass = new (pageRef: unknown, mcid: number) => object;
let StructureContent: ContentClass | undefined;

/** Opens content of a structure element of `type` on the current page, as doc.markStructureContent(type). */
export function markStructureContent(doc: Doc, type: string): PDFKit.PDFStructureContent {
  const marker = doc as unknown as Marker;
  if (!StructureContent) {
    const content = marker.markStructureContent(type) as PDFKit.PDFStructureContent;
    StructureContent = content.constructor as ContentClass;
    return content;
  }
  const { page } = marker;
  const parents = marker.getStructParentTree().get(page.structParentTreeKey);
  const mcid = parents.length;
  parents.push(null);
  // pdfkit closes what is open first, except (its test being `options.mcid`) before a page's first content.
  if (mcid !== 0) closeOpen(marker);
  const marking: Marking = { tag: type, options: { mcid } };
  page.markings.push(marking);
  marker.addContent(`/${type} <<\n/MCID ${mcid}\n>> BDC`);
  const content = new StructureContent(page.dictionary, mcid);
  marking.structContent = content;
  return content as PDFKit.PDFStructureContent;
}

/** Opens an artifact of `type` (decoration, page furniture), as doc.markContent("Artifact", { type }). */
export function markArtifact(doc: Doc, type: "Layout" | "Pagination"): void {
  const marker = doc as unknown as Marker;
  closeOpen(marker);
  marker.page.markings.push({ tag: "Artifact", options: { type } });
  marker.addContent(`/Artifact <<\n/Type /${type}\n>> BDC`);
}

/** Ends the marked content open from the first structure content or artifact on (artifacts don't nest). */
function closeOpen(marker: Marker): void {
  const { markings } = marker.page;
  let toClose = 0;
  for (let i = 0; i < markings.length; i++) if (toClose || markings[i]!.structContent || markings[i]!.tag === "Artifact") toClose++;
  while (toClose--) marker.endMarkedContent();
}
