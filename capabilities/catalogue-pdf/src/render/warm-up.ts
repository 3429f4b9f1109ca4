import type { z } from "zod";
import { filenameFrom } from "../document/filename.js";
import { prepareDocument } from "../document/prepare.js";
import type { CreateDocumentArgs } from "../document/schema.js";
import { checkFallbackFiles } from "../text/fallback-fonts.js";
import { coverage } from "../text/font-runs.js";
import { renderDocument } from "./render-document.js";

/**
 * Renders before the server reports ready (issue 17: the first document after start in ≤ 50 ms): the
 * arguments checked by the schema the kit checks calls with (`toolInput`: create_pdf_document's, which the
 * kit made strict, a schema of its own that zod compiles on its first use), the file named as a call's is
 * (the name's Unicode patterns compile on first use too, ~1 ms), the regular and bold faces
 * read, HarfBuzz's shaper compiled, pdfkit's and our code paths run twice (once leaves them half
 * compiled), each time with new glyphs (accented letters among them, which DejaVu builds from parts) so
 * that fonts are subset and embedded anew. The fallback fonts stay unread (they load when a document needs them); their files
 * must be there, so an image built without them fails here rather than on a user's document.
 */
export async function warmUp(toolInput: z.ZodObject): Promise<void> {
  checkFallbackFiles();
  for (const variant of ["Grüße, café 1", "Naïve Ärger 2"]) await renderSample(variant, toolInput);
}

/** Renders a small document in the two faces a letter uses (each further face is ready in milliseconds). */
export async function renderSample(variant: string, toolInput: z.ZodObject): Promise<void> {
  // The kit's schema is create_pdf_document's (tools/create-document.ts), so its output is that schema's.
  const args = toolInput.parse({
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
  }) as CreateDocumentArgs;
  filenameFrom(`${args.title} ${variant}`);
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
