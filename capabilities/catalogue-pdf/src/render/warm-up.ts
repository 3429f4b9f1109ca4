import { prepareDocument } from "../document/prepare.js";
import { checkFallbackFiles } from "../text/fallback-fonts.js";
import { coverage } from "../text/font-runs.js";
import { renderDocument } from "./render-document.js";

/**
 * Renders a small document once before the server reports ready (issue 17: the first document after
 * start in ≤ 50 ms): DejaVu parsed, HarfBuzz compiled and its fonts created, and pdfkit's code warm. The
 * fallback fonts stay unread (they load when a document needs them); their files must be there, so an
 * image built without them fails here rather than on a user's document.
 */
export async function warmUp(): Promise<void> {
  checkFallbackFiles();
  const prepared = prepareDocument(
    {
      title: "Warm-up",
      subtitle: "Ready",
      sections: [
        {
          heading: "Fonts",
          // Regular and bold only: each face HarfBuzz opens costs memory, and a further face is ready in
          // milliseconds when a document first uses it.
          content: [
            "Regular **bold** [link](https://example.com) Ωω Жж €",
            { type: "list", ordered: true, items: ["one", "two"] },
            { type: "table", columns: [{ header: "A" }, { header: "B", align: "right" }], rows: [["a", "1"]] },
          ],
        },
      ],
    },
    coverage(),
  );
  await renderDocument(prepared, new Map(), {
    pageSize: "A4",
    orientation: "portrait",
    language: "en",
    tableOfContents: false,
    pageNumbers: true,
    metadata: { title: "Warm-up", creationDate: new Date(0) },
    maxPages: 2,
    maxBytes: 1 << 20,
    signal: new AbortController().signal,
  });
}
