// The longest run of plain characters every match of a regular expression must contain ("NEEDLE-" in
// /NEEDLE-[0-9a-f]+ found/), so grep can find candidate lines with Buffer.indexOf and decode and test
// only those (GNU grep does the same with its "must" strings). Conservative: any construct it doesn't
// understand ends the current run, and a top-level alternative means there is no required literal.

const SPECIAL = new Set([..."\\^$.|?*+()[]{}"]);

/** The required literal of `source` (at least 2 characters), or undefined when there is none. */
export function requiredLiteral(source: string): string | undefined {
  let depth = 0;
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const next = source[i + 1];
    const optional = next === "?" || next === "*" || (next === "{" && /^\{0[,}]/.test(source.slice(i + 1)));
    if (c === "\\") {
      const escaped = source[i + 1];
      i++;
      // \. \- \/ and the like are the character itself; \d, \w, \b, \x41 ... are not plain text.
      if (escaped !== undefined && /[^A-Za-z0-9]/.test(escaped) && depth === 0 && !isOptional(source, i)) run += escaped;
      else end();
      if (escaped !== undefined && isOptional(source, i)) end();
      continue;
    }
    if (c === "(") {
      depth++;
      end();
      continue;
    }
    if (c === ")") {
      depth--;
      end();
      continue;
    }
    if (c === "|") {
      if (depth === 0) return undefined;
      continue;
    }
    if (c === "[") {
      end();
      i = skipClass(source, i);
      continue;
    }
    const quantifier = c === "{" ? /^\{\d+(?:,\d*)?\}/.exec(source.slice(i)) : null;
    if (quantifier) {
      end();
      i += quantifier[0].length - 1;
      continue;
    }
    if (SPECIAL.has(c) || depth > 0) {
      end();
      continue;
    }
    if (optional) {
      end();
      continue;
    }
    run += c;
    if (next === "+") end();
  }
  end();
  return best.length >= 2 ? best : undefined;
}

function isOptional(source: string, i: number): boolean {
  const next = source[i + 1];
  return next === "?" || next === "*" || (next === "{" && /^\{0[,}]/.test(source.slice(i + 1)));
}

function skipClass(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "]" && i > start + 1) return i;
  }
  return source.length;
}
