import { readFileSync, readdirSync } from "node:fs";

/** A process and all its descendants, parents first, read from /proc (Linux). */
export function processTree(root: number): number[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) {
    try {
      for (const task of readdirSync(`/proc/${out[i]}/task`)) {
        const children = readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8").trim();
        if (children) out.push(...children.split(/\s+/).map(Number));
      }
    } catch {
      // Gone already.
    }
  }
  return out;
}

/**
 * The process that really serves: the deepest one in the tree. Under bubblewrap a signal to the
 * wrapper would tear the sandbox down; the server itself must get SIGTERM to drain.
 */
export function serverProcess(root: number): number {
  return processTree(root).at(-1) ?? root;
}
