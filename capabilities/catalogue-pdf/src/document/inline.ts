/** A stretch of text with one style. */
export interface Run {
  text: string;
  bold: boolean;
  italic: boolean;
  code: boolean;
  /** Target of a link (https, http or mailto). */
  link?: string;
  /** Tells a link's pieces (its lines, its fonts) from another link's to the same target: one per link. */
  linkId?: number;
  /** Struck through (`~~text~~`); absent when not. */
  strike?: true;
  /** A colour of its own (an emoji whose colour is its meaning, document/emoji-colours.ts); absent when not. */
  color?: string;
}

// Bounded, and tried only where "](" follows within reach: an unbounded scan from every "[" is
// quadratic (a 20,000-character run of "[" took most of a second).
const LINK_TEXT_MAX = 500;
// A target may hold parentheses in pairs, as markdown allows (Wikipedia's "Rust_(programming_language)").
const LINK = new RegExp(`^\\[([^\\]\\n]{1,${LINK_TEXT_MAX}})\\]\\(((?:https?:\\/\\/|mailto:)(?:[^\\s()]|\\([^\\s()]{0,2000}\\)){1,2000})\\)`);

/**
 * Parses the inline markup of paragraphs, list items, quotes and cells: `**bold**`, `*italic*`,
 * `~~struck~~`, `` `code` ``, `[text](https://…)` (and `![alt](https://…)` as a link to the image) and `\` to
 * escape a character markup here uses (not every ASCII punctuation, as CommonMark would: `C:\Users\me\.ssh`
 * and `\d+\.\d+` stay as written). What models write of HTML in markdown is read too: `<br>` is a line
 * break (the only way to one in a markdown table's cell), and `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
 * `&nbsp;`, the common named references of dashes, quotes and signs (`&mdash;`, `&hellip;`, `&copy;`,
 * `&euro;`, … see NAMED) and numeric references are their characters in text and link text (`&amp;` in link targets
 * too), and `<b>`/`<strong>`, `<i>`/`<em>`, `<s>`/`<del>`/`<strike>`, `<code>` style their text where the
 * closing tag follows, not past code (`<sup>` and `<sub>` of digits, signs, brackets and small letters are set in raised
 * or lowered characters, `m²`, `H₂O`; else they, `<u>`, `<mark>`, `<small>` and `<span>` are dropped,
 * their text kept). A marker without its closing partner is kept as text, so
 * ordinary prose with a lone asterisk renders as written.
 *
 * @example
 * parseInline("a **b** `c`") // [{text:"a "}, {text:"b", bold}, {text:" "}, {text:"c", code}]
 */
export function parseInline(source: string): Run[] {
  // Most cells and many paragraphs have no markup: one run, without reading them character by character.
  if (!MARKUP.test(source)) return source ? [{ text: source, bold: false, italic: false, code: false }] : [];
  const runs: Run[] = [];
  // The marker that opened bold and italic text (`*` or `_`; 0 while off): only the same marker closes it.
  let boldBy = 0;
  let italicBy = 0;
  let struckBy = 0;
  const styled = (text: string, code: boolean, link?: string): Run => {
    const run: Run = link === undefined ? { text, bold: boldBy !== 0, italic: italicBy !== 0, code } : { text, bold: boldBy !== 0, italic: italicBy !== 0, code, link, linkId: ++links };
    if (struckBy !== 0) run.strike = true;
    return run;
  };
  const tags = new HtmlTags(source);
  const underscoreClosers = new UnderscoreClosers(source);
  // Literal text is cut from the source where it ends rather than added a character at a time (a string
  // each): `pending` holds the text before an escape, `from` is where the text after it starts.
  let pending = "";
  let from = 0;
  const flush = (to: number) => {
    const text = pending + source.slice(from, to);
    if (text) add(runs, styled(text, false));
    pending = "";
  };
  /** Markup at source[i, i + length): the text before it ends there, then `run` (if any); returns where reading goes on. */
  const markup = (i: number, length: number, run?: Run) => {
    flush(i);
    if (run) add(runs, run);
    from = i + length;
    return from;
  };
  /** Text standing for source[i, i + length): kept with the literal text around it. */
  const literal = (i: number, length: number, text: string) => {
    pending = pending + source.slice(from, i) + text;
    from = i + length;
    return from;
  };
  let close = 0; // the next "](" after the current "[" (-1: none left), found once per position, not per "["
  for (let i = 0; i < source.length; ) {
    const unit = source.charCodeAt(i);
    if (unit === BACKSLASH && i + 1 < source.length && (ESCAPABLE.test(source[i + 1]!) || (source[i + 1] === "." && DIGIT.test(source[i - 1] ?? "")))) {
      i = literal(i, 2, source[i + 1]!);
      continue;
    }
    if (unit === AMPERSAND) {
      const match = ENTITY.exec(source.slice(i, i + 12));
      const decoded = match ? entity(match) : undefined;
      if (decoded !== undefined) {
        i = literal(i, match![0].length, decoded);
        continue;
      }
    }
    if (unit === BACKTICK) {
      const end = source.indexOf("`", i + 1);
      if (end > i + 1) {
        i = markup(i, end + 1 - i, styled(source.slice(i + 1, end), true));
        continue;
      }
    }
    if (unit === BRACKET && source.charCodeAt(i + 1) === CARET) {
      // A markdown footnote's mark, [^1]: its number raised (¹). Its note, a line `[^1]: text`, starts
      // with the number raised and the colon left out.
      const note = FOOTNOTE.exec(source.slice(i, i + 8));
      if (note) {
        const starts = i === 0 || source.charCodeAt(i - 1) === 0x0a;
        const length = starts && note[2] ? note[0].length : note[0].length - (note[2]?.length ?? 0);
        i = literal(i, length, starts && note[2] ? `${shiftedText(note[1]!, SUPERSCRIPT)!} ` : shiftedText(note[1]!, SUPERSCRIPT)!);
        continue;
      }
    }
    if (unit === BRACKET) {
      if (close !== -1 && close <= i) close = source.indexOf("](", i + 1);
      const match = close !== -1 && close - i <= LINK_TEXT_MAX + 1 ? LINK.exec(source.slice(i, close + 2 + 2_001)) : null;
      if (match) {
        // An image in markdown (![alt](url)) can't be drawn inside a paragraph: its alt text links to it.
        const start = source.charCodeAt(i - 1) === BANG && from <= i - 1 ? i - 1 : i;
        i = markup(start, i + match[0].length - start, styled(decodeEntities(match[1]!), false, match[2]!.replaceAll("&amp;", "&")));
        continue;
      }
    }
    if (unit === LESS && source.startsWith("http", i + 1)) {
      const match = AUTOLINK.exec(source.slice(i, i + 2_003));
      if (match) {
        i = markup(i, match[0].length, styled(match[1]!, false, match[1]!));
        continue;
      }
    }
    if (unit === LESS) {
      const br = LINE_BREAK.exec(source.slice(i, i + 8));
      if (br) {
        i = literal(i, br[0].length, "\n");
        continue;
      }
      const tag = TAG.exec(source.slice(i, i + 10));
      const name = tag?.[2]!.toLowerCase();
      if (tag && name === "code" && !tag[1]) {
        const start = i + tag[0].length;
        const end = tags.closing("code", start);
        if (end > start) {
          i = markup(i, end + "</code>".length - i, styled(decodeEntities(source.slice(start, end)), true));
          continue;
        }
      } else if (tag && (name === "sup" || name === "sub") && !tag[1]) {
        // m<sup>2</sup>, 10<sup>-3</sup>, H<sub>2</sub>O: in the characters raised or lowered ones have,
        // when each has one (dropped, the tags left "m2" and "10-3").
        const start = i + tag[0].length;
        const end = tags.closing(name, start);
        const shifted = end > start ? shiftedText(decodeEntities(source.slice(start, end)), name === "sup" ? SUPERSCRIPT : SUBSCRIPT) : undefined;
        if (shifted !== undefined) {
          i = literal(i, end + name.length + 3 - i, shifted);
          continue;
        }
      }
      if (tag && name !== "code") {
        const style = TAG_STYLES[name!]!;
        const by = style === "bold" ? boldBy : style === "italic" ? italicBy : style === "strike" ? struckBy : 0;
        // An opening tag counts where its closing tag follows, a closing one where its kind opened the style.
        const toggles = tag[1] ? (style === "none" ? tags.close(name!) : by === LESS) : (style === "none" || by === 0) && tags.open(name!, i + tag[0].length);
        if (toggles) {
          i = markup(i, tag[0].length);
          const to = tag[1] ? 0 : LESS;
          if (style === "bold") boldBy = to;
          else if (style === "italic") italicBy = to;
          else if (style === "strike") struckBy = to;
          continue;
        }
      }
    }
    if (unit === TILDE && source.charCodeAt(i + 1) === TILDE && ((struckBy === TILDE && mayClose(source, i)) || (struckBy === 0 && closes(source, i + 2, "~~")))) {
      i = markup(i, 2);
      struckBy = struckBy === 0 ? TILDE : 0;
      continue;
    }
    // Underscores mark emphasis only at the edges of words: snake_case and a__b__c stay text.
    if (unit === UNDERSCORE) {
      const length = source.charCodeAt(i + 1) === UNDERSCORE ? 2 : 1;
      const by = length === 2 ? boldBy : italicBy;
      const toggles =
        source.charCodeAt(i + length) !== UNDERSCORE &&
        (by === UNDERSCORE ? closesUnderscore(source, i, length) : by === 0 && opensUnderscore(source, i, length) && underscoreClosers.after(i + length, length));
      if (toggles) {
        i = markup(i, length);
        if (length === 2) boldBy = by === 0 ? UNDERSCORE : 0;
        else italicBy = by === 0 ? UNDERSCORE : 0;
        continue;
      }
    }
    if (unit === STAR && source.charCodeAt(i + 1) === STAR && ((boldBy === STAR && mayClose(source, i)) || (boldBy === 0 && closes(source, i + 2, "**")))) {
      i = markup(i, 2);
      boldBy = boldBy === 0 ? STAR : 0;
      continue;
    }
    if (unit === STAR && ((italicBy === STAR && mayClose(source, i)) || (italicBy === 0 && closes(source, i + 1, "*")))) {
      i = markup(i, 1);
      italicBy = italicBy === 0 ? STAR : 0;
      continue;
    }
    i += 1;
  }
  flush(source.length);
  return runs;
}

/** Links read so far, for their {@link Run.linkId}. */
let links = 0;

/** A character that can begin markup (or escape it). */
const MARKUP = /[\\`[*_<~&]/;
const AUTOLINK = /^<(https?:\/\/[^\s<>]{1,2000})>/;
const LINE_BREAK = /^<br\s*\/?>/i;
// The HTML tags of inline style models write in markdown, without attributes.
const TAG = /^<(\/?)(b|strong|i|em|s|del|strike|code|u|sup|sub|mark|small|span)>/i;
/** What each tag does: a style, or nothing but keep its text (no underline, raised or lowered text here). */
const TAG_STYLES: Record<string, "bold" | "italic" | "strike" | "none"> = {
  b: "bold",
  strong: "bold",
  i: "italic",
  em: "italic",
  s: "strike",
  del: "strike",
  strike: "strike",
  u: "none",
  sup: "none",
  sub: "none",
  mark: "none",
  small: "none",
  span: "none",
};
// The characters Unicode has raised or lowered forms of (that DejaVu draws, every face): digits, signs,
// brackets, and the small letters it has them for (all raised but q: 1ˢᵗ, XIXᵉ, Mᵐᵉ; lowered a e o x h k
// l m n p s t i r u v j: vₘₐₓ, xᵢ). Capitals have too few to write a word in.
const forms = (plain: string, shifted: string) => new Map(Array.from(plain, (c, i) => [c, Array.from(shifted)[i]!]));
const SUPERSCRIPT = forms("0123456789+-−=()abcdefghijklmnoprstuvwxyz", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ");
const SUBSCRIPT = forms("0123456789+-−=()aeoxhklmnpstiruvj", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ");

/** `text` in raised or lowered characters (`forms`), or undefined when one of its characters has none. */
function shiftedText(text: string, forms: ReadonlyMap<string, string>): string | undefined {
  let out = "";
  for (const c of text) {
    const form = forms.get(c);
    if (form === undefined) return undefined;
    out += form;
  }
  return out;
}

/**
 * What a backslash keeps as text: the characters inline markup and markdown blocks use (`#` headings, `>`
 * quotes, `-` and `+` items, `|` cells) and `$`, which models escape against math; `.` only after a digit
 * (`1\.`, a numbered item's escape), as paths and patterns have `\.` of their own.
 */
const ESCAPABLE = /[\\*`[\]()_<>~&!#|+$-]/;
// The named references HTML a model copies into text most often: markup, spaces, dashes, quotes, signs.
const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00A0",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  copy: "©",
  reg: "®",
  trade: "™",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  deg: "°",
  plusmn: "±",
  times: "×",
  divide: "÷",
  micro: "µ",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  le: "≤",
  ge: "≥",
  ne: "≠",
  asymp: "≈",
  infin: "∞",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  harr: "↔",
  rArr: "⇒",
  check: "✓",
};
const ENTITY = new RegExp(`^&(?:(${Object.keys(NAMED).join("|")})|#(\\d{1,7})|#[xX]([\\da-fA-F]{1,6}));`);

const ENTITIES = new RegExp(ENTITY.source.slice(1), "g");

/** Text with its entity references as their characters. */
function decodeEntities(text: string): string {
  return text.includes("&") ? text.replace(ENTITIES, (...match) => entity(match as unknown as RegExpExecArray) ?? match[0]) : text;
}

/** The character an entity reference stands for; undefined for a control character, a surrogate or past Unicode (kept as written). */
function entity(match: RegExpExecArray): string | undefined {
  if (match[1]) return NAMED[match[1]];
  const code = match[2] ? Number(match[2]) : Number.parseInt(match[3]!, 16);
  if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0xd800 && code < 0xe000) || code > 0x10ffff) return undefined;
  return String.fromCodePoint(code);
}

const DIGIT = /\d/;
const AMPERSAND = 0x26;
const BANG = 0x21;
const TILDE = 0x7e;
const LESS = 0x3c;
const UNDERSCORE = 0x5f;
const BACKSLASH = 0x5c;
const BACKTICK = 0x60;
const BRACKET = 0x5b;
const CARET = 0x5e;
/** A footnote mark of a number, `[^12]`, and the colon and spaces after it where it starts a note's line. */
const FOOTNOTE = /^\[\^(\d{1,3})\](:[ \t]*)?/;
const STAR = 0x2a;

/** The text without markup (for measuring and for the table of contents). */
export function plainText(source: string): string {
  return runsText(parseInline(source));
}

/** The runs' text as one string. */
export function runsText(runs: readonly Run[]): string {
  let text = "";
  for (let i = 0; i < runs.length; i++) text += runs[i]!.text;
  return text;
}

// An opening marker counts only if a closing one follows, and the marked text neither starts nor ends with
// a space ("2 * 3 * 4" stays as written, and so does "**not closed and *this*": its "*" after a space
// closes nothing).
function closes(source: string, from: number, marker: string): boolean {
  if (from >= source.length || /\s/.test(source[from]!)) return false;
  let at = source.indexOf(marker, from);
  for (;;) {
    // A single "*" must not match half of a "**".
    if (marker === "*" && at !== -1 && source[at + 1] === "*") at = source.indexOf(marker, at + 2);
    else if (at > from && /\s/.test(source[at - 1]!)) at = source.indexOf(marker, at + 1);
    else return at > from;
  }
}

/** Whether the marker at `at` may close what it opened: not after a space. */
const mayClose = (source: string, at: number) => at > 0 && !/\s/.test(source[at - 1]!);

/** Whether `length` underscores at `at` can open emphasis: at the start of a word, before text. */
function opensUnderscore(source: string, at: number, length: number): boolean {
  const before = source[at - 1];
  const after = source[at + length];
  return (before === undefined || !WORD.test(before)) && after !== undefined && !/\s/.test(after);
}

/** Whether `length` underscores at `at` can close emphasis: at the end of a word, after text. */
function closesUnderscore(source: string, at: number, length: number): boolean {
  const before = source[at - 1];
  const after = source[at + length];
  return before !== undefined && !/[\s_]/.test(before) && (after === undefined || !WORD.test(after));
}

/**
 * Finds whether an underscore run that can close emphasis follows a position: the search goes forward
 * only (openers come in order), so a text of many underscores is read in linear time.
 */
class UnderscoreClosers {
  readonly #source: string;
  // Per run length (1, 2): the first closer found at or after `#from`, or -1 for none.
  readonly #found = [0, -2, -2];
  readonly #from = [0, 0, 0];

  constructor(source: string) {
    this.#source = source;
  }

  after(from: number, length: number): boolean {
    const found = this.#found[length]!;
    if (found === -1 && this.#from[length]! <= from) return false;
    if (found >= from) return true;
    const source = this.#source;
    let at = source.indexOf("_", from);
    while (at !== -1) {
      let end = at;
      while (source.charCodeAt(end) === UNDERSCORE) end++;
      if (end - at === length && closesUnderscore(source, at, length)) break;
      at = source.indexOf("_", end);
    }
    this.#found[length] = at;
    this.#from[length] = from;
    return at !== -1;
  }
}

const WORD = /[\p{L}\p{N}_]/u;

/**
 * The closing tags of a text's HTML tags: whether one follows an opening tag, searched forward only and
 * remembered per tag (openers come in order, so a text of many unclosed tags is read in linear time), and
 * which tags without a style were opened, for their closing tags to be dropped too.
 */
class HtmlTags {
  readonly #source: string;
  /** Per tag: the closing tag found last (-1: none at or after `from`), and where that search started. */
  readonly #found = new Map<string, { from: number; at: number }>();
  readonly #open = new Map<string, number>();
  #tick = { from: 0, at: -1 };

  constructor(source: string) {
    this.#source = source;
  }

  /** Where the closing tag of `name` at or after `from` starts, or -1. */
  #closer(name: string, from: number): number {
    const known = this.#found.get(name);
    if (known && (known.at >= from || (known.at === -1 && known.from <= from))) return known.at;
    const pattern = new RegExp(`</${name}>`, "gi");
    pattern.lastIndex = from;
    const at = pattern.exec(this.#source)?.index ?? -1;
    this.#found.set(name, { from, at });
    return at;
  }

  /**
   * Where the closing tag of `name` at or after `from` starts, or -1; -1 too for one past a backtick, in
   * code further on (`<b>` written about in prose, then `` `<b>hi</b>` ``).
   */
  closing(name: string, from: number): number {
    const at = this.#closer(name, from);
    return at !== -1 && this.#backtick(from) > at ? at : -1;
  }

  /** Whether an opening tag of `name` ending at `from` has its closing tag after it (and counts it open). */
  open(name: string, from: number): boolean {
    if (this.closing(name, from) === -1) return false;
    this.#open.set(name, (this.#open.get(name) ?? 0) + 1);
    return true;
  }

  /** The first backtick at or after `from` (infinity: none), remembered as a closing tag is. */
  #backtick(from: number): number {
    if (this.#tick.at >= from || (this.#tick.at === Number.POSITIVE_INFINITY && this.#tick.from <= from)) return this.#tick.at;
    const at = this.#source.indexOf("`", from);
    this.#tick = { from, at: at === -1 ? Number.POSITIVE_INFINITY : at };
    return this.#tick.at;
  }

  /** Whether a closing tag of `name` closes one opened (and counts it closed). */
  close(name: string): boolean {
    const open = this.#open.get(name) ?? 0;
    if (open === 0) return false;
    this.#open.set(name, open - 1);
    return true;
  }
}

/** Appends `run`, joined onto the run before it when both have one style and neither is a link. */
function add(runs: Run[], run: Run): void {
  const last = runs.at(-1);
  if (last && !last.link && !run.link && last.bold === run.bold && last.italic === run.italic && last.code === run.code && last.strike === run.strike) last.text += run.text;
  else runs.push(run);
}
