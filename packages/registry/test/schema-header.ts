/** The first line of every manifest.yaml: editors validate it against the published JSON Schema. */
export const SCHEMA_HEADER = "# yaml-language-server: $schema=../../registry/manifest.schema.json";
