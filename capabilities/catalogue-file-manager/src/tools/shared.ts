import type { ToolHelpers } from "@selu-catalogue/kit";
import type { FileManagerOptions } from "../config.js";
import type { FileManagerCredentials } from "../credentials.js";
import { WriteBudget } from "../workspace/quota.js";
import { parseRelativePath } from "../workspace/relative-path.js";
import type { SecureFs } from "../workspace/secure-fs.js";

/** The tool helper, typed with this capability's credentials. */
export type FmTool = ToolHelpers<FileManagerCredentials>["tool"];

/** What every tool factory gets: the workspace and the settings. */
export interface ToolEnv {
  fs: SecureFs;
  options: FileManagerOptions;
}

/** Selu cuts a result past 49,152 bytes; results are built to stay under this, leaving room for keys. */
export const RESULT_BUDGET_BYTES = 40 * 1024;

/** Parses a path argument (see parseRelativePath); `field` names it in errors. */
export const pathArg = (value: string | null | undefined, field: string) => parseRelativePath(value ?? "", field);

/** A fresh write budget for one call. */
export const budgetFor = (env: ToolEnv) => new WriteBudget(env.options.quotas);

/** How many of `items` fit in `budget` bytes of JSON (at least one, so a page always moves on). */
export function countWithin(items: readonly unknown[], budget = RESULT_BUDGET_BYTES): number {
  let used = 0;
  for (let i = 0; i < items.length; i++) {
    used += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (used > budget) return Math.max(1, i);
  }
  return items.length;
}

/** Cuts text to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, maxBytes: number): { text: string; cut: boolean } {
  if (Buffer.byteLength(text) <= maxBytes) return { text, cut: false };
  const bytes = Buffer.from(text, "utf8");
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString("utf8"), cut: true };
}
