import type { Doc } from "./doc.js";

// pdfkit turns a colour into operators every time one is set: it parses the hex string, maps the parts
// into a new array, and joins them (ColorMixin._setColorCore, pdfkit 0.20). Text sets its colour per run,
// so a letter did that ~100 times (13 KiB). The operators for a hex colour depend on nothing else, so
// they are made once, by pdfkit's own code, and kept.

/** The parts of pdfkit's document colour setting uses (internal, pdfkit 0.20). */
interface Colorer {
  _setColorCore(color: unknown, stroke: boolean): boolean;
  _normalizeColor(color: unknown): number[] | null;
  addContent(data: string): unknown;
}

/** The colour space and colour operators for filling and for stroking. */
interface Operators {
  fill: [space: string, color: string];
  stroke: [space: string, color: string];
}

/** By hex string (`#1f2328`); a handful in practice, bounded in case colours ever come from input. */
const known = new Map<string, Operators>();
const MAX_KNOWN = 64;

/** Makes `doc` set hex colours from the operators kept for them. */
export function keepColors(doc: Doc): void {
  const colorer = doc as unknown as Colorer;
  const setColor = colorer._setColorCore.bind(doc);
  colorer._setColorCore = (color, stroke) => {
    if (typeof color !== "string" || color.charAt(0) !== "#") return setColor(color, stroke);
    const operators = known.get(color) ?? learn(colorer, color);
    if (!operators) return setColor(color, stroke);
    const set = stroke ? operators.stroke : operators.fill;
    colorer.addContent(set[0]);
    colorer.addContent(set[1]);
    return true;
  };
}

/** The operators pdfkit writes for `color` (RGB, as a hex colour is), or undefined if it writes none. */
function learn(colorer: Colorer, color: string): Operators | undefined {
  const parts = colorer._normalizeColor(color);
  if (!parts || parts.length !== 3) return undefined;
  const values = parts.join(" ");
  const operators: Operators = { fill: ["/DeviceRGB cs", `${values} scn`], stroke: ["/DeviceRGB CS", `${values} SCN`] };
  if (known.size >= MAX_KNOWN) known.clear();
  known.set(color, operators);
  return operators;
}
