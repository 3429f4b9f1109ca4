import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import type { CapabilityDescription } from "./description.js";
import { formatKeyPath } from "./problem.js";

/** Where a capability's built code lives, relative to its directory. */
export const CAPABILITY_MODULE = join("dist", "capability.js");

const descriptionSchema = z.object({
  id: z.string(),
  tool_source: z.enum(["manifest", "dynamic"]).optional(),
  discovery_tool_name: z.string().optional(),
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      input_schema: z.record(z.string(), z.unknown()),
      recommended_policy: z.enum(["allow", "ask", "block"]),
      terminal_on_success: z.boolean(),
    }),
  ),
  credentials: z.array(
    z.object({
      name: z.string(),
      scope: z.enum(["user", "system"]),
      required: z.boolean(),
      description: z.string(),
      credential_type: z.string().optional(),
    }),
  ),
});

/**
 * Imports `<dir>/dist/capability.js` and returns its default export's `describe()`: the tools and
 * credentials the code defines. Used by the CLI to write and check manifest.yaml against the built code.
 *
 * @throws Error naming the file when it is missing (not built), has no `describe()`, or returns something
 * other than a {@link CapabilityDescription}.
 */
export async function loadCodeDescription(dir: string): Promise<CapabilityDescription> {
  const file = join(dir, CAPABILITY_MODULE);
  if (!existsSync(file)) throw new Error(`${file}: not found; build the capability first (pnpm build)`);
  let module: { default?: { describe?: unknown } };
  try {
    module = (await import(pathToFileURL(file).href)) as typeof module;
  } catch (error) {
    throw new Error(`${file}: cannot be imported: ${(error as Error).message}`, { cause: error });
  }
  const capability = module.default;
  if (typeof capability?.describe !== "function") {
    throw new Error(`${file}: expected a default export with a describe() method (export default defineCapability(...))`);
  }
  const parsed = descriptionSchema.safeParse(capability.describe());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${file}: describe() returned an invalid description at ${formatKeyPath(issue.path as (string | number)[])}: ${issue.message}`);
  }
  return parsed.data;
}
