import { prepareDocument } from "../document/prepare.js";
import { createDocumentInput } from "../document/schema.js";
import { checkFallbackFiles } from "../text/fallback-fonts.js";
import { coverage } from "../text/font-runs.js";
import { renderDocument } from "./render-document.js";

/**
 * Renders before the server reports ready (issue 17: the first document after start in ≤ 50 ms): the
 * arguments checked by the tool's own schema (zod compiles it on first use), the regular and bold faces
 * read, HarfBuzz's shaper compiled, pdfkit's and our code paths run twice (once leaves them half
 * compiled), each time with new glyphs (accented letters among them, which DejaVu builds from parts) so
 * that fonts are subset and embedded anew. The fallback fonts stay unread (they load when a document needs them); their files
 * must be there, so an image built without them fails here rather than on a user's document.
 */
export async function warmUp(): Promise<void> {
  checkFallbackFiles();
  for (const variant of ["Grüße, café 1", "Naïve Ärger 2"]) await renderSample(variant);
}

/** Renders a small document in the two faces a letter uses (each further face is ready in milliseconds). */
export async function renderSample(variant: string): Promise<void> {
  const args = createDocumentInput.parse({
    title: "Warm-up",
    author: "Selu",
    date: "23 November 2026",
    language: "en",
    sections: [
      {
        heading: "Fonts",
        content: [
          `Regular **bold ${variant}** [link](https://example.com) Ωω Жж € ${variant}`,
          { type: "list", ordered: true, items: ["one", "two"] },
          { type: "table", columns: [{ header: "A" }, { header: "B", align: "right" }], rows: [["a", "1"]] },
        ],
      },
    ],
  });
  const prepared = prepareDocument(args, coverage());
  await renderDocument(prepared, new Map(), {
    pageSize: "A4",
    orientation: "portrait",
    language: args.language,
    tableOfContents: false,
    pageNumbers: true,
    metadata: { title: prepared.title, author: args.author, creationDate: new Date(0) },
    maxPages: 2,
    maxBytes: 1 << 20,
    signal: new AbortController().signal,
  });
}
