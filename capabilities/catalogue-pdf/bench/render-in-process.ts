// The side-by-side bench's documents (bench/side-by-side.ts) rendered in this process, from the build
// (dist/, after `./dev build`), for the in-process benches.
import { letterWithNewWords, sampleLetter, sampleReport } from "../test/fixtures/documents.ts";

type Args = ReturnType<typeof sampleReport> | ReturnType<typeof sampleLetter>;
const { prepareDocument } = (await import(new URL("../dist/document/prepare.js", import.meta.url).href)) as {
  prepareDocument(args: Args, coverage: unknown): unknown;
};
const { coverage } = (await import(new URL("../dist/text/font-runs.js", import.meta.url).href)) as { coverage(): unknown };
const { renderDocument } = (await import(new URL("../dist/render/render-document.js", import.meta.url).href)) as {
  renderDocument(prepared: unknown, images: Map<string, unknown>, options: Record<string, unknown>): Promise<{ bytes: Buffer; pages: number }>;
};

/**
 * A function rendering the bench's letter or 20-page report (no images) once; "new-words", the letter with
 * other words each time (the side-by-side bench's letterWithNewWords).
 */
export function renderer(which: "letter" | "report" | "new-words") {
  let round = 0;
  const next = (): Args => (which === "report" ? sampleReport({ images: 0, rows: 40 }) : which === "new-words" ? letterWithNewWords(++round) : sampleLetter());
  const args = next();
  const options = {
    pageSize: "A4",
    orientation: "portrait",
    language: args.language,
    tableOfContents: "table_of_contents" in args && args.table_of_contents,
    pageNumbers: true,
    metadata: { title: args.title, creationDate: new Date(0) },
    maxPages: 500,
    maxBytes: 50 << 20,
    signal: new AbortController().signal,
  };
  return () => renderDocument(prepareDocument(which === "new-words" ? next() : args, coverage()), new Map(), options);
}
