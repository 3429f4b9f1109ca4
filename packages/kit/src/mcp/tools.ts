import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { neededCredentials, type Capability } from "../capability.js";
import type { ToolDescription } from "../description.js";
import { toolDisplayNames } from "../display-name.js";

/**
 * What an MCP client passes where Selu passes `{artifact_id}`: a resource this server returned earlier,
 * or the file's bytes. The rest of the element (per-file fields such as `pages`) is as in the manifest.
 */
const MCP_FILE_PROPERTIES = {
  uri: { type: "string", description: "The uri of a file this server returned earlier (a resource_link in a tool result)" },
  data_base64: { type: "string", description: "The file's content, base64-encoded (instead of uri)" },
  filename: { type: "string", description: "The file's name, with data_base64" },
  mime_type: { type: "string", description: "The file's media type, with data_base64" },
};

/**
 * The capability's tools as MCP lists them, from the same description the manifest is written from:
 * name, description and input schema as in the manifest (only `attachments` elements take a uri or
 * base64 content instead of Selu's artifact_id), the registry's display name as title, and annotations from what the definition knows.
 */
export function mcpTools(capability: Capability): Tool[] {
  const { tools } = capability.describe();
  const titles = toolDisplayNames(tools);
  return tools.map((description) => mcpTool(capability, description, titles.get(description.name)!));
}

function mcpTool(capability: Capability, description: ToolDescription, title: string): Tool {
  const def = capability.tools.get(description.name)!;
  const readOnly = description.recommended_policy === "allow";
  return {
    name: description.name,
    title,
    description: description.description,
    inputSchema: mcpInputSchema(description.input_schema) as Tool["inputSchema"],
    annotations: {
      title,
      // The catalogue's rule (CONTRIBUTING): `ask` for anything that sends, buys, moves or deletes, so an
      // `allow` tool has no effect on the world beyond the files it returns.
      readOnlyHint: readOnly,
      ...(readOnly ? {} : { destructiveHint: true }),
      // A tool that needs credentials talks to the user's account at some service.
      openWorldHint: neededCredentials(def, capability.credentials).length > 0,
    },
  };
}

/** The manifest's input schema with each top-level `attachments` element taking `uri` or `data_base64`. */
export function mcpInputSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  const items = properties?.attachments?.items as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  if (!properties || !items?.properties || !("artifact_id" in items.properties)) return schema;
  const { artifact_id: _, ...fields } = items.properties;
  const mcpItems = {
    ...items,
    properties: { ...MCP_FILE_PROPERTIES, ...fields },
    required: (items.required ?? []).filter((key) => key !== "artifact_id"),
  };
  return { ...schema, properties: { ...properties, attachments: { ...properties.attachments, items: mcpItems } } };
}
