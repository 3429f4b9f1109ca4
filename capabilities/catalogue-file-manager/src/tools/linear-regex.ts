import { setFlagsFromString } from "node:v8";
import { ToolError } from "@selu-catalogue/kit";

// A pattern from the model must not stall the process (ReDoS: /(a+)+$/ on a long line backtracks for
// hours, and a synchronous regex can't be cancelled). V8 runs a regex on its fast backtracking engine
// and, with --enable-experimental-regexp-engine-on-excessive-backtracks, re-runs it on its linear-time
// engine once it backtracks too much. The fallback needs a pattern the linear engine accepts, so every
// pattern is also compiled with the "l" flag first (which refuses backreferences and lookaround). The
// linear engine has no "i" or "u" flag, so case-insensitive search folds the pattern's letters instead.
// Both flags are set here, at the first pattern, not on node's command line: a V8 flag there makes V8
// refuse the code Node ships compiled for its own modules, and every start compiles them again (~20 ms).
let linearEngine = false;
function useLinearEngine(): void {
  if (linearEngine) return;
  setFlagsFromString("--enable-experimental-regexp-engine");
  setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");
  linearEngine = true;
}

/**
 * Compiles a search pattern for the linear-time engine: a regular expression, or literal text.
 * @throws {ToolError} naming `pattern` when it is invalid or needs backtracking.
 */
export function linearRegex(pattern: string, options: { regex: boolean; caseSensitive: boolean }): RegExp {
  useLinearEngine();
  let source = options.regex ? pattern : pattern.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  if (!options.caseSensitive) source = foldCase(source);
  try {
    new RegExp(source, "l");
    return new RegExp(source, "gm");
  } catch (err) {
    const why = /linear time/.test((err as Error).message)
      ? "uses backreferences or lookaround, which can take exponential time; rewrite it without them"
      : (err as Error).message.replace(/^Invalid regular expression: /, "is invalid: ");
    throw new ToolError(`pattern: ${why}`);
  }
}

/** Rewrites letters outside escapes as [xX] (and extends letter ranges in classes) for case-insensitive matching. */
function foldCase(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      // An escape keeps its case (\W is not \w); \x, \u and \c forms keep their arguments too.
      const m = /^\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|c[a-zA-Z]|p\{[^}]*\}|P\{[^}]*\}|.)/s.exec(source.slice(i));
      out += m![0];
      i += m![0].length - 1;
    } else if (inClass) {
      if (c === "]") inClass = false;
      const range = /^(\p{L})-(\p{L})/u.exec(source.slice(i));
      if (range) {
        out += `${range[0]}${range[1]!.toLowerCase()}-${range[2]!.toLowerCase()}${range[1]!.toUpperCase()}-${range[2]!.toUpperCase()}`;
        i += range[0].length - 1;
      } else out += c === "]" ? c : bothCases(c, false);
    } else if (c === "[") {
      inClass = true;
      out += c;
      if (source[i + 1] === "^") out += source[++i];
    } else out += bothCases(c, true);
  }
  return out;
}

function bothCases(c: string, wrap: boolean): string {
  const lower = c.toLowerCase();
  const upper = c.toUpperCase();
  if (lower === upper || lower.length !== 1 || upper.length !== 1) return c;
  return wrap ? `[${lower}${upper}]` : `${lower}${upper}`;
}
