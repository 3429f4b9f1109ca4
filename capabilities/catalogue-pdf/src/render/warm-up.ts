import { prepareDocument } from "../document/prepare.js";
import { checkFallbackFiles } from "../text/fallback-fonts.js";
import { coverage, fontRuns } from "../text/font-runs.js";
import { renderDocument } from "./render-document.js";

/**
 * Readies the fonts before the server reports ready (issue 17: the first document after start in ≤ 50 ms):
 * DejaVu parsed, HarfBuzz compiled and the regular and bold faces shaped once. The fallback fonts stay
 * unread (they load when a document needs them); their files must be there, so an image built without
 * them fails here rather than on a user's document. Then a small document is rendered in the background,
 * which warms pdfkit's code without holding up readiness (Selu waits for it, within 2 s).
 */
export function warmUp(): void {
  checkFallbackFiles();
  for (const face of ["regular", "bold"] as const) fontRuns("Ready Ωω Жж", face)[0]!.font.layout("Ready Ωω Жж");
  setImmediate(() => void renderSample().catch(() => undefined));
}

/** Renders a small document in the two faces a letter uses (each further face is ready in milliseconds). */
export async function renderSample(): Promise<void> {
  const prepared = prepareDocument(
    {
      title: "Warm-up",
      subtitle: "Ready",
      sections: [
        {
          heading: "Fonts",
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
