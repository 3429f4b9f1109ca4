import type { Doc } from "./doc.js";
import type { PdfRef } from "./pdf-ref.js";
import { hasRightToLeft } from "../text/direction.js";

// pdfkit's PDFStructureElement (pdfkit 0.20) checks whether an element can be written by walking its
// children with callbacks at every add, attach and end, filters them into new arrays and copies its
// options: a report's 2,860 elements allocated ~3 MB that way. This is the part of it the renderer uses
// (elements, marked content and link annotations as children, no closures), with the same dictionaries
// written in the same order: an element is written once it has a parent, has ended, and so have all
// the elements under it.

/** pdfkit's marked content (PDFStructureContent): the pages and marked-content ids it spans. */
interface Content {
  refs: { pageRef: PdfRef; mcid: number }[];
}

/** pdfkit's PDFAnnotationReference: what its `annotate` adds to the structure element a link is drawn in. */
interface AnnotationReference {
  annotationRef: PdfRef;
}

/** An annotation as a kid: written as an object reference (OBJR) with its page. */
interface Annotation {
  annotation: PdfRef;
  page: PdfRef;
}

/** The parts of pdfkit's document the tree uses (internal, pdfkit 0.20). */
interface TreeDoc {
  ref(data: Record<string, unknown>): PdfRef;
  getStructTreeRoot(): PdfRef;
  getStructParentTree(): { get(key: unknown): unknown[]; add(key: number, value: PdfRef): void };
  createStructParentTreeNextKey(): number;
  structChildren: { end(): void }[];
  page: { dictionary: PdfRef };
}

/** Options of an element: alt text (figures), language, and a header cell's scope (written as /A). */
export interface ElementOptions {
  alt?: string;
  lang?: string;
  scope?: "Column" | "Row";
  /** The element's text in reading order, for a reader of the tree (see {@link inReadingOrder}). */
  actualText?: string;
  /** A Link's text: its annotations' /Contents, which PDF/UA asks for (not written on the element). */
  contents?: string;
}

/** The options of most elements, shared rather than made at each call. */
export const NO_OPTIONS: ElementOptions = Object.freeze({});

/**
 * `options` with the element's text as its ActualText when the text has right-to-left letters: its marked
 * content holds the glyphs in visual order, which a screen reader following the tree would read reversed.
 * The ActualText of the element, not of its marked content: pdftotext reads the content stream, and
 * rebuilds right-to-left lines from the glyphs themselves.
 */
export function inReadingOrder(text: string, options: ElementOptions = NO_OPTIONS): ElementOptions {
  return hasRightToLeft(text) ? { ...options, actualText: text } : options;
}

type Kid = StructElement | Content | Annotation;

/** No kids yet: shared, never added to (the first kid makes an array of one; most elements have one). */
const NONE: Kid[] = [];

/** A structure element (PDF 32000-1, 14.7.2), written as pdfkit writes its own. */
export class StructElement {
  /** The element's dictionary. */
  readonly ref: PdfRef;
  readonly #doc: TreeDoc;
  readonly #contents: string | undefined;
  #kids: Kid[] = NONE;
  #ended = false;
  #written = false;

  constructor(doc: Doc, type: string, options: ElementOptions = NO_OPTIONS) {
    this.#doc = doc as unknown as TreeDoc;
    // The entries in pdfkit's order.
    const data: Record<string, unknown> = { S: type };
    if (options.lang) data.Lang = new String(options.lang);
    if (options.alt) data.Alt = new String(options.alt);
    if (options.scope) data.A = { O: "Table", Scope: options.scope };
    if (options.actualText) data.ActualText = new String(options.actualText);
    this.ref = this.#doc.ref(data);
    this.#contents = options.contents;
  }

  /**
   * The dictionary, as pdfkit's element has it: a link drawn while this element is the document's
   * `_currentStructureElement` and is a Link gets its annotation added here (pdfkit's `_fragment`).
   */
  get dictionary(): PdfRef {
    return this.ref;
  }

  /** Makes this the tree's root, as doc.addStructure does. */
  attachAsRoot(): void {
    const root = this.#doc.getStructTreeRoot();
    this.#setParent(root);
    this.#doc.structChildren.push(this);
    if (!root.data.K) root.data.K = [];
    (root.data.K as unknown[]).push(this.ref);
  }

  /**
   * Adds an element, marked content or (from pdfkit, before it writes the annotation) a link's annotation
   * as the last child; the content's marks and the annotation now belong to this element.
   */
  add(child: StructElement | PDFKit.PDFStructureContent | AnnotationReference): void {
    if (this.#ended) throw new Error("Cannot add child to already-ended structure element");
    if ("annotationRef" in child) {
      this.#addAnnotation(child.annotationRef);
      return;
    }
    if (child instanceof StructElement) {
      child.#setParent(this.ref);
    } else {
      const { refs } = child as unknown as Content;
      for (let i = 0; i < refs.length; i++) {
        const { pageRef, mcid } = refs[i]!;
        this.#doc.getStructParentTree().get(pageRef.data.StructParents)[mcid] = this.ref;
      }
    }
    const kid = child as Kid;
    if (this.#kids === NONE) this.#kids = [kid];
    else this.#kids.push(kid);
  }

  /** Ends this element and those under it, and writes what can be written. */
  end(): void {
    if (this.#ended) return;
    for (let i = 0; i < this.#kids.length; i++) {
      const kid = this.#kids[i];
      if (kid instanceof StructElement) kid.end();
    }
    this.#ended = true;
    this.#write();
  }

  #addAnnotation(annotation: PdfRef): void {
    const key = this.#doc.createStructParentTreeNextKey();
    annotation.data.StructParent = key;
    if (this.#contents !== undefined) annotation.data.Contents = new String(this.#contents);
    this.#doc.getStructParentTree().add(key, this.ref);
    const kid: Annotation = { annotation, page: this.#doc.page.dictionary };
    if (this.#kids === NONE) this.#kids = [kid];
    else this.#kids.push(kid);
  }

  #setParent(parent: PdfRef): void {
    if (this.ref.data.P) throw new Error("Structure element added to more than one parent");
    this.ref.data.P = parent;
    this.#write();
  }

  #writable(): boolean {
    if (!this.ref.data.P || !this.#ended) return false;
    for (let i = 0; i < this.#kids.length; i++) {
      const kid = this.#kids[i];
      if (kid instanceof StructElement && !kid.#writable()) return false;
    }
    return true;
  }

  /** Writes the dictionary with its kids: elements by reference, content by id (on another page than the first, as a marked-content reference). */
  #write(): void {
    if (this.#written || !this.#writable()) return;
    const { data } = this.ref;
    let count = 0;
    for (let i = 0; i < this.#kids.length; i++) {
      const kid = this.#kids[i]!;
      count += kid instanceof StructElement || "annotation" in kid ? 1 : kid.refs.length;
    }
    // Sized up front: pushing onto an empty array reserves room for 16.
    const kids = new Array<unknown>(count);
    data.K = kids;
    let k = 0;
    for (let i = 0; i < this.#kids.length; i++) {
      const kid = this.#kids[i]!;
      if (kid instanceof StructElement) {
        kids[k++] = kid.ref;
        continue;
      }
      if ("annotation" in kid) {
        kids[k++] = { Type: "OBJR", Obj: kid.annotation, Pg: kid.page };
        continue;
      }
      for (let r = 0; r < kid.refs.length; r++) {
        const { pageRef, mcid } = kid.refs[r]!;
        if (!data.Pg) data.Pg = pageRef;
        kids[k++] = data.Pg === pageRef ? mcid : { Type: "MCR", Pg: pageRef, MCID: mcid };
      }
    }
    this.ref.end();
    this.#kids = NONE;
    data.K = null;
    this.#written = true;
  }
}
