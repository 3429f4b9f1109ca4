import type { Run } from "./inline.js";

// The emoji font shipped is monochrome (Noto Emoji): its red, amber and green circles differ only in their
// hatching, so a project's status (🟢 🟡 🔴) read as grey. Emoji whose colour is their meaning are drawn
// in it; the text copied out is unchanged.
const RED = "#d93025";
const ORANGE = "#e8710a";
const YELLOW = "#c99400";
const GREEN = "#1e8e3e";
const BLUE = "#1a73e8";
const PURPLE = "#8e24aa";
const BROWN = "#795548";

const COLOURS = new Map<number, string>([
  [0x1f534, RED], // 🔴
  [0x1f535, BLUE], // 🔵
  [0x1f7e0, ORANGE], // 🟠
  [0x1f7e1, YELLOW], // 🟡
  [0x1f7e2, GREEN], // 🟢
  [0x1f7e3, PURPLE], // 🟣
  [0x1f7e4, BROWN], // 🟤
  [0x1f7e5, RED], // 🟥
  [0x1f7e6, BLUE], // 🟦
  [0x1f7e7, ORANGE], // 🟧
  [0x1f7e8, YELLOW], // 🟨
  [0x1f7e9, GREEN], // 🟩
  [0x1f7ea, PURPLE], // 🟪
  [0x1f7eb, BROWN], // 🟫
  [0x1f536, ORANGE], // 🔶
  [0x1f537, BLUE], // 🔷
  [0x1f538, ORANGE], // 🔸
  [0x1f539, BLUE], // 🔹
  [0x2705, GREEN], // ✅
  [0x274c, RED], // ❌
  [0x274e, GREEN], // ❎
  [0x2b55, RED], // ⭕
  [0x2757, RED], // ❗
  [0x2753, RED], // ❓
  [0x26a0, YELLOW], // ⚠
  [0x26d4, RED], // ⛔
  [0x1f6ab, RED], // 🚫
  [0x2764, RED], // ❤
  [0x1f9e1, ORANGE], // 🧡
  [0x1f49b, YELLOW], // 💛
  [0x1f49a, GREEN], // 💚
  [0x1f499, BLUE], // 💙
  [0x1f49c, PURPLE], // 💜
]);

const ZWJ = 0x200d;

// Any of them, for a quick test of a run's text: made from COLOURS, so the two can't differ.
const ANY = new RegExp(`[${[...COLOURS.keys()].map((code) => String.fromCodePoint(code)).join("")}]`, "u");

/**
 * `runs` with each emoji of COLOURS in a run of its own, in its colour (a variation selector after it goes
 * with it; one joined into a sequence stays in it); the others as they were. Code keeps its own colour.
 */
export function colouredEmoji(runs: Run[]): Run[] {
  if (!runs.some((run) => !run.code && ANY.test(run.text))) return runs;
  const out: Run[] = [];
  for (const run of runs) {
    if (run.code || !ANY.test(run.text)) {
      out.push(run);
      continue;
    }
    let from = 0;
    const { text } = run;
    for (let i = 0; i < text.length; ) {
      const code = text.codePointAt(i)!;
      const size = code > 0xffff ? 2 : 1;
      const color = COLOURS.get(code);
      if (!color) {
        i += size;
        continue;
      }
      let end = i + size;
      // Variation selector 16 (emoji style) and 15 stay with their character.
      while (end < text.length && (text.charCodeAt(end) === 0xfe0f || text.charCodeAt(end) === 0xfe0e)) end++;
      // Part of a sequence joined by ZWJ (❤️‍🔥): the sequence is one glyph, drawn as the others are.
      if (text.charCodeAt(end) === ZWJ || text.charCodeAt(i - 1) === ZWJ) {
        i = end;
        continue;
      }
      if (i > from) out.push({ ...run, text: text.slice(from, i) });
      out.push({ ...run, text: text.slice(i, end), color });
      from = i = end;
    }
    if (from < text.length) out.push({ ...run, text: text.slice(from) });
  }
  return out;
}
