import type PDFDocument from "pdfkit";

/** The pdfkit document every render module writes to (a type of its own, so no module imports the page layout for it). */
export type Doc = InstanceType<typeof PDFDocument>;
