import type { Doc } from "./doc.js";
import { markArtifact, markStructureContent } from "./marked-content.js";
import { type ElementOptions, NO_OPTIONS, StructElement } from "./struct-element.js";

export type { ElementOptions, StructElement };

// Tagged PDF (issue 17 item 4): a structure tree in reading order, so screen readers read headings,
// paragraphs, lists, tables, quotes, code and figures (with their alt text) as what they are, and skip
// decoration and page furniture, which are marked as artifacts.

type Element = StructElement;

/** Standard structure types (PDF 1.7, 14.8.4) the renderer uses. */
export type StructType =
  | "Document"
  | "Sect"
  | "H1"
  | "H2"
  | "H3"
  | "P"
  | "L"
  | "LI"
  | "Lbl"
  | "LBody"
  | "Table"
  | "THead"
  | "TBody"
  | "TR"
  | "TH"
  | "TD"
  | "BlockQuote"
  | "Code"
  | "Figure"
  | "Caption"
  | "TOC"
  | "TOCI"
  | "Link";

interface Open {
  element: Element;
  type: StructType;
}

/** Content being marked for an element, while {@link Tags.content} draws it. */
interface Marking extends Open {
  content: PDFKit.PDFStructureContent;
}

/**
 * The document's structure tree while it is written: elements open and close as a stack (a list holds
 * its items, an item its label and body), and drawn content is marked as content of the innermost one.
 * Page breaks inside marked content are pdfkit's: it closes the marking on one page and continues it on
 * the next.
 */
export class Tags {
  readonly #doc: Doc;
  readonly #stack: Open[];
  readonly #compact: (dictionary: unknown) => void;
  #marking: Marking | undefined;
  /** Each link's Link element by its id, to take the link's later pieces (in the same parent). */
  readonly #links = new Map<number, { element: Element; parent: Element }>();

  /** `compact` is given each element's dictionary, to be written compactly (see render/object-streams.ts). */
  constructor(doc: Doc, compact: (dictionary: unknown) => void) {
    this.#doc = doc;
    this.#compact = compact;
    compact((doc as unknown as { getStructTreeRoot(): unknown }).getStructTreeRoot());
    const root = this.#struct("Document");
    root.attachAsRoot();
    this.#stack = [{ element: root, type: "Document" }];
  }

  /** Opens an element as the last child of the innermost open one. */
  open(type: StructType, options: ElementOptions = NO_OPTIONS): Element {
    const element = this.#struct(type, options);
    this.#top().element.add(element);
    this.#stack.push({ element, type });
    return element;
  }

  /** Closes the innermost open element. */
  close(): void {
    if (this.#stack.length === 1) throw new Error("the document element can't be closed");
    this.#stack.pop()!.element.end();
  }

  /** An element whose children come later, out of order (the contents, filled once pages are known). */
  reserve(type: StructType): Element {
    const element = this.#struct(type);
    this.#top().element.add(element);
    return element;
  }

  /** Makes `element` the innermost open one while `fill` runs, then ends it. */
  fillReserved<T>(element: Element, type: StructType, fill: () => T): T {
    this.#stack.push({ element, type });
    try {
      return fill();
    } finally {
      this.#stack.pop();
      element.end();
    }
  }

  /** Marks what `draw` draws as content of the innermost open element. */
  content<T>(draw: () => T): T {
    const { element, type } = this.#top();
    const outer = this.#marking;
    this.#marking = { element, type, content: markStructureContent(this.#doc, type) };
    const result = draw();
    this.#endMarking();
    this.#marking = outer;
    return result;
  }

  /**
   * Inside {@link content}: a link's text and annotation as a Link element of their own (PDF/UA 7.18.5),
   * between the text before and after it, so a screen reader says "link" where it is. The pieces of one
   * link (`id`: its lines, its fonts) go into one Link element. `description` becomes its annotations'
   * /Contents. pdfkit gives a link it draws (`link` option) to the element; `draw` is given it for an
   * annotation made otherwise. Outside marked content (page furniture) it only draws.
   */
  link<T>(id: number | undefined, description: string, draw: (link?: Element) => T): T {
    const marking = this.#marking;
    if (!marking) return draw();
    this.#endMarking();
    let link = id === undefined ? undefined : this.#links.get(id);
    if (!link || link.parent !== marking.element) {
      const element = this.#struct("Link", { contents: description });
      marking.element.add(element);
      // Ended with its parent, after its last piece (right-to-left lines draw pieces of several links in turn).
      link = { element, parent: marking.element };
      if (id !== undefined) this.#links.set(id, link);
    }
    // pdfkit gives the annotation of a link it draws to the current structure element, if it is a Link.
    const doc = this.#doc as unknown as { _currentStructureElement?: unknown };
    const current = doc._currentStructureElement;
    doc._currentStructureElement = link.element;
    const content = markStructureContent(this.#doc, "Link");
    try {
      return draw(link.element);
    } finally {
      this.#doc.endMarkedContent();
      doc._currentStructureElement = current;
      link.element.add(content);
      // The element's text after the link is marked anew.
      marking.content = markStructureContent(this.#doc, marking.type);
    }
  }

  #endMarking(): void {
    const { element, content } = this.#marking!;
    this.#doc.endMarkedContent();
    // Added once drawn: pdfkit records each page the content reached when it is added.
    element.add(content);
  }

  /** An element holding only what `draw` draws. */
  leaf<T>(type: StructType, draw: () => T, options: ElementOptions = NO_OPTIONS): T {
    this.open(type, options);
    try {
      return this.content(draw);
    } finally {
      this.close();
    }
  }

  /** An element holding the elements `fill` opens. */
  group<T>(type: StructType, fill: () => T, options: ElementOptions = NO_OPTIONS): T {
    this.open(type, options);
    try {
      return fill();
    } finally {
      this.close();
    }
  }

  /** Marks what `draw` draws as an artifact: decoration (rules, fills) or page furniture, not read aloud. */
  artifact<T>(draw: () => T, type: "Layout" | "Pagination" = "Layout"): T {
    markArtifact(this.#doc, type);
    const result = draw();
    this.#doc.endMarkedContent();
    return result;
  }

  /** Ends the tree; every element but the document must have been closed. */
  end(): void {
    if (this.#stack.length !== 1) throw new Error(`${this.#stack.length - 1} structure elements are still open`);
    this.#stack[0]!.element.end();
  }

  #struct(type: StructType, options: ElementOptions = NO_OPTIONS): Element {
    const element = new StructElement(this.#doc, type, options);
    this.#compact(element.ref);
    return element;
  }

  #top(): Open {
    return this.#stack.at(-1)!;
  }
}

const byDoc = new WeakMap<Doc, Tags>();

/** Starts the structure tree of a document created with `tagged: true` (see {@link Tags} for `compact`). */
export function startTags(doc: Doc, compact: (dictionary: unknown) => void): Tags {
  const tags = new Tags(doc, compact);
  byDoc.set(doc, tags);
  return tags;
}

/** The structure tree of a document being rendered. */
export function tagsOf(doc: Doc): Tags {
  const tags = byDoc.get(doc);
  if (!tags) throw new Error("the document has no structure tree; create it with startTags");
  return tags;
}
