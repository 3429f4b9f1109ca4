// A unified diff (as `diff -u` prints it) of two texts, for edit_file's preview. Lines are compared
// with Myers' O((N+M)·D) algorithm after trimming the common start and end, so a few edits in a large
// file cost little.

const TRACE_BYTES = 16 * 1024 * 1024;

type Op = { kind: " " | "-" | "+"; line: string };

/** The unified diff of `before` and `after`, with `context` lines around each change ("" when equal). */
export function unifiedDiff(path: string, before: string, after: string, context = 3): string {
  if (before === after) return "";
  const a = before.split("\n");
  const b = after.split("\n");
  const ops = diffLines(a, b);
  const out = [`--- a/${path}`, `+++ b/${path}`];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === " ") {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    let end = i;
    // Extend the hunk while the next change is within 2·context unchanged lines.
    for (let j = i; j < ops.length; j++) {
      if (ops[j]!.kind !== " ") end = j;
      else if (j - end > 2 * context) break;
    }
    const stop = Math.min(ops.length, end + context + 1);
    const [aStart, bStart] = position(ops, start);
    const slice = ops.slice(start, stop);
    const aLen = slice.filter((o) => o.kind !== "+").length;
    const bLen = slice.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${aStart + (aLen ? 1 : 0)},${aLen} +${bStart + (bLen ? 1 : 0)},${bLen} @@`, ...slice.map((o) => o.kind + o.line));
    i = stop;
    start = stop;
  }
  return `${out.join("\n")}\n`;
}

function position(ops: readonly Op[], upTo: number): [number, number] {
  let a = 0;
  let b = 0;
  for (let k = 0; k < upTo; k++) {
    if (ops[k]!.kind !== "+") a++;
    if (ops[k]!.kind !== "-") b++;
  }
  return [a, b];
}

function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...a.slice(0, head).map((line) => ({ kind: " " as const, line })), ...middle, ...a.slice(a.length - tail).map((line) => ({ kind: " " as const, line }))];
}

function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  outer: for (let d = 0; d <= max; d++) {
    // The trace holds one copy of v per step: past 16 MiB, show the changed middle as one replacement.
    if ((d + 1) * v.byteLength > TRACE_BYTES) return [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))];
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[k - 1 + max]! < v[k + 1 + max]!) ? v[k + 1 + max]! : v[k - 1 + max]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) x++, y++;
      v[k + max] = x;
      if (x >= n && y >= m) break outer;
    }
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const prev = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && prev[k - 1 + max]! < prev[k + 1 + max]!);
    const pk = down ? k + 1 : k - 1;
    const px = prev[pk + max]!;
    const py = px - pk;
    while (x > px && y > py) ops.push({ kind: " ", line: a[--x]! }), y--;
    if (down) ops.push({ kind: "+", line: b[--y]! });
    else ops.push({ kind: "-", line: a[--x]! });
  }
  while (x > 0 && y > 0) ops.push({ kind: " ", line: a[--x]! }), y--;
  return ops.reverse();
}
