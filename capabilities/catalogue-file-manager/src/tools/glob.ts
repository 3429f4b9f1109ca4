// Glob patterns as search_files, grep, directory_tree and zip take them: * and ? within a name, ** across
// directories, [abc] classes and {a,b} alternatives. A pattern without "/" matches a name at any depth.

/** Compiles a glob into a test on "/"-separated paths relative to the search's start. */
export function globMatcher(pattern: string): (path: string) => boolean {
  const anchored = pattern.includes("/");
  const source = translate(pattern.replace(/^\.\//, ""));
  const re = new RegExp(anchored ? `^${source}$` : `(?:^|/)${source}$`, "u");
  return (path) => re.test(path);
}

function translate(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        out += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) out += "\\[";
      else {
        const body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
        out += body.startsWith("!") ? `[^/${body.slice(1)}]` : `[${body}]`;
        i = end;
      }
    } else if (c === "{") {
      const end = glob.indexOf("}", i);
      if (end < 0) out += "\\{";
      else {
        out += `(?:${glob
          .slice(i + 1, end)
          .split(",")
          .map(translate)
          .join("|")})`;
        i = end;
      }
    } else out += /[.+^$()|\\]/.test(c) ? `\\${c}` : c;
  }
  return out;
}

/** One matcher for a list of globs (any of them). */
export function anyGlob(patterns: readonly string[] | undefined): ((path: string) => boolean) | undefined {
  if (!patterns || patterns.length === 0) return undefined;
  const matchers = patterns.map(globMatcher);
  return (path) => matchers.some((m) => m(path));
}
