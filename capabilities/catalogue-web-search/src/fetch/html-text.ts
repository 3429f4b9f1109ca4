// The DOM of linkedom, typed loosely: it implements what we walk here.
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
}

const BLOCKS = new Set([
  "ADDRESS",
  "ARTICLE",
  "ASIDE",
  "BLOCKQUOTE",
  "BR",
  "DD",
  "DIV",
  "DL",
  "DT",
  "FIGCAPTION",
  "FIGURE",
  "FOOTER",
  "FORM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HEADER",
  "HR",
  "LI",
  "MAIN",
  "NAV",
  "OL",
  "P",
  "PRE",
  "SECTION",
  "TABLE",
  "TR",
  "UL",
]);
const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "SVG", "IFRAME", "OBJECT"]);

/**
 * Plain text of an element: block elements start new lines, table cells are separated by tabs,
 * list items get "- ", whitespace inside text collapses (except in `<pre>`), blank lines are kept to one.
 */
export function elementText(root: DomNode): string {
  const out: string[] = [];
  walk(root, out, false);
  return out
    .join("")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n[ \t]+/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function walk(node: DomNode, out: string[], pre: boolean): void {
  if (node.nodeType === 3) {
    const text = node.textContent ?? "";
    out.push(pre ? text : text.replace(/\s+/g, " "));
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const name = node.nodeName.toUpperCase();
  if (SKIP.has(name)) return;
  const block = BLOCKS.has(name);
  if (block) out.push(name === "P" || name.startsWith("H") ? "\n\n" : "\n");
  if (name === "LI") out.push("- ");
  if (name === "TD" || name === "TH") out.push("\t");
  const children = node.childNodes;
  for (let i = 0; i < children.length; i++) walk(children[i]!, out, pre || name === "PRE");
  if (block) out.push("\n");
}
