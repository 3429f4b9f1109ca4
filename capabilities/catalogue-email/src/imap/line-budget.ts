import { formatBytes } from "@selu-catalogue/kit";

/** The error code of a session whose server sent more response lines than {@link ImapLineBudget} allows. */
export const TOO_MANY_RESPONSE_LINES = "TooManyResponseLines";

// A line that announces a literal ends in `{123}` or `{123+}` (RFC 3501 / 7888); the digits are bounded by
// imapflow's literal limit, so a few bytes of the line's end are enough to read it.
const LITERAL_AT_END = /\{(\d{1,12})\+?\}$/;
const TAIL_BYTES = 16;

/**
 * Counts the bytes of an IMAP session's response lines (everything but literal contents) as they arrive
 * from the socket, before imapflow parses them, and reports once they pass `maxBytes`.
 *
 * imapflow bounds each response, but not how many it parses: a server answering one SEARCH with thousands
 * of untagged FETCH lines full of flags, each within the bounds, keeps the client tokenising for minutes.
 * Message contents travel as literals and are cheap to read (and bounded per fetch), so only the lines
 * count: they are what costs parsing, and a real session's lines stay far smaller (a SEARCH of a million
 * UIDs is a 7 MB line).
 */
export class ImapLineBudget {
  private lineBytes = 0;
  private literalLeft = 0;
  private tail = "";
  private exceeded = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onExceeded: (error: Error) => void,
  ) {}

  /** Line bytes counted so far. */
  get used(): number {
    return this.lineBytes;
  }

  /** Feeds bytes read from the server, in order. */
  observe(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && !this.exceeded) {
      if (this.literalLeft > 0) {
        const skip = Math.min(this.literalLeft, chunk.length - at);
        this.literalLeft -= skip;
        at += skip;
        continue;
      }
      const lf = chunk.indexOf(0x0a, at);
      const end = lf === -1 ? chunk.length : lf + 1;
      this.lineBytes += end - at;
      this.tail = (this.tail + chunk.toString("latin1", Math.max(at, end - TAIL_BYTES), end)).slice(-TAIL_BYTES);
      at = end;
      if (this.lineBytes > this.maxBytes) {
        this.exceeded = true;
        const error = Object.assign(new Error(`more than ${formatBytes(this.maxBytes)} of response lines in one session`), { code: TOO_MANY_RESPONSE_LINES });
        this.onExceeded(error);
        return;
      }
      if (lf !== -1) {
        const literal = LITERAL_AT_END.exec(this.tail.replace(/\r?\n$/, ""));
        this.literalLeft = literal ? Number(literal[1]) : 0;
        this.tail = "";
      }
    }
  }
}
