// The parts of pdfkit's objects (internal, pdfkit 0.20) that our writing of them reads and replaces.

/** pdfkit's reference to an indirect object (internal, pdfkit 0.20). */
export interface PdfRef {
  id: number;
  gen: number;
  offset: number;
  data: Record<string, unknown>;
  buffer: Uint8Array[];
  compress: boolean;
  document: Writer;
  finalize(): void;
  end(chunk?: Uint8Array): void;
}

/** The parts of pdfkit's document an object's writing uses. */
export interface Writer {
  _offset: number;
  _security?: unknown;
  _write(data: string | Uint8Array): void;
  _refEnd(ref: PdfRef): void;
}
