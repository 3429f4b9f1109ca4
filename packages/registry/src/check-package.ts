import { type Manifest, parseManifest, type ToolDescription } from "@selu-catalogue/manifest";
import { parse } from "yaml";
import type { z } from "zod";
import { inputDescriptions } from "./english.js";
import { type AgentYaml, agentYamlSchema, type LocaleBundle, localeBundleSchema } from "./selu-schemas.js";

/** A tool whose strings are checked: as the manifest lists it, or as discovery (or describe()) returns it. */
export type CheckedTool = Pick<ToolDescription, "name"> & { input_schema: unknown; recommended_policy?: string | undefined };

/** An agent package as Selu loads it, after {@link checkAgentPackage} found no problems. */
export interface LoadedAgent {
  agent: AgentYaml;
  locales: Map<string, LocaleBundle>;
  /** By the capability directory name inside the package. */
  manifests: Map<string, Manifest>;
}

/**
 * Loads an extracted agent package under Selu's rules (agents/loader.rs `load_one`) and the catalogue's:
 * agent.yaml and every `i18n/*.yaml|yml` must deserialise as Selu's types (one bad i18n file makes Selu
 * drop the whole agent), every `capabilities/<dir>/manifest.yaml` must parse without problems, and every
 * supported locale must name every tool, input field, credential, install step and `ask` tool's approval.
 * A dynamic capability's manifest lists no tools: pass the tools it can discover in `discovered` (by
 * capability id) so their strings are checked too. Returns the loaded agent and every problem, each
 * naming its file.
 */
export function checkAgentPackage(
  files: ReadonlyMap<string, Uint8Array>,
  discovered: ReadonlyMap<string, readonly CheckedTool[]> = new Map(),
): { loaded: LoadedAgent | undefined; problems: string[] } {
  const problems: string[] = [];
  const read = (path: string) => Buffer.from(files.get(path)!).toString("utf8");
  const agent = files.has("agent.yaml") ? parseYaml("agent.yaml", read("agent.yaml"), agentYamlSchema, problems) : undefined;
  if (!files.has("agent.yaml")) problems.push("agent.yaml: missing");
  if (!files.has("agent.md")) problems.push("agent.md: missing (the agent's system prompt)");

  const locales = new Map<string, LocaleBundle>();
  const manifests = new Map<string, Manifest>();
  for (const path of [...files.keys()].sort()) {
    const i18n = /^i18n\/([^/]+)\.ya?ml$/.exec(path);
    if (i18n) {
      const bundle = parseYaml(path, read(path), localeBundleSchema, problems);
      if (bundle) locales.set(i18n[1]!, bundle);
    }
    const cap = /^capabilities\/([^/]+)\/manifest\.yaml$/.exec(path);
    if (cap) {
      const { manifest, problems: found } = parseManifest(read(path));
      for (const p of found) problems.push(`${path}${p.line === undefined ? "" : `:${p.line}`}: ${p.path}: ${p.message}`);
      if (manifest) manifests.set(cap[1]!, manifest);
    }
  }
  if (!agent) return { loaded: undefined, problems };
  if (manifests.size === 0) problems.push("capabilities/: no manifest.yaml; the agent would have no tools");
  checkLocales(agent, locales, [...manifests.values()], discovered, problems);
  checkInstallSteps(agent, [...manifests.values()], problems);
  return { loaded: { agent, locales, manifests }, problems };
}

function parseYaml<T extends z.ZodType>(path: string, text: string, schema: T, problems: string[]): z.output<T> | undefined {
  let document: unknown;
  try {
    document = parse(text, { uniqueKeys: true, strict: true, maxAliasCount: 0 });
  } catch (error) {
    problems.push(`${path}: not valid YAML: ${(error as Error).message.split("\n")[0]}`);
    return undefined;
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    problems.push(`${path}: expected a mapping at the top`);
    return undefined;
  }
  const parsed = schema.safeParse(document);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) problems.push(`${path}: ${issue.path.join(".") || "(top)"}: ${issue.message}`);
  return undefined;
}

function checkLocales(agent: AgentYaml, locales: Map<string, LocaleBundle>, manifests: Manifest[], discovered: ReadonlyMap<string, readonly CheckedTool[]>, problems: string[]): void {
  const { default_locale: fallback, supported_locales: supported } = agent.i18n;
  if (!supported.includes(fallback)) problems.push(`agent.yaml: i18n.supported_locales: lacks the default locale "${fallback}"`);
  for (const locale of supported) {
    const bundle = locales.get(locale);
    const file = `i18n/${locale}.yaml`;
    if (!bundle) {
      problems.push(`${file}: missing for supported locale "${locale}"`);
      continue;
    }
    const need = (ok: unknown, key: string) => {
      if (typeof ok !== "string" || ok.trim() === "") problems.push(`${file}: ${key}: missing`);
    };
    need(bundle.agent.name, "agent.name");
    need(bundle.agent.description, "agent.description");
    for (const step of agent.install_steps) need(bundle.install_steps[step.id]?.label, `install_steps.${step.id}.label`);
    for (const m of manifests) {
      const cap = bundle.capabilities[m.id];
      const at = `capabilities.${m.id}`;
      const tools: readonly CheckedTool[] = m.tool_source === "dynamic" ? (discovered.get(m.id) ?? []) : m.tools;
      for (const tool of tools) {
        const t = cap?.tools[tool.name];
        need(t?.display_name, `${at}.tools.${tool.name}.display_name`);
        need(t?.description, `${at}.tools.${tool.name}.description`);
        for (const field of Object.keys(inputDescriptions(tool.input_schema))) need(t?.input[field]?.description, `${at}.tools.${tool.name}.input.${field}.description`);
        if (tool.recommended_policy === "ask") {
          const approval = bundle.approval.tools[`${m.id}__${tool.name}`];
          need(approval?.label, `approval.tools.${m.id}__${tool.name}.label`);
          need(approval?.message, `approval.tools.${m.id}__${tool.name}.message`);
          // Selu names the tool by its approval label wherever it shows one (localized_tool_display_name).
          if (approval?.label && t?.display_name && approval.label.trim() !== t.display_name.trim()) {
            problems.push(`${file}: approval.tools.${m.id}__${tool.name}.label: "${approval.label}" differs from the tool's display_name "${t.display_name}"; Selu shows the label as the tool's name`);
          }
        }
      }
      for (const c of m.credentials) need(cap?.credentials[c.name]?.description, `${at}.credentials.${c.name}.description`);
    }
  }
}

function checkInstallSteps(agent: AgentYaml, manifests: Manifest[], problems: string[]): void {
  for (const step of agent.install_steps) {
    const target = step.store_as;
    if (!target) continue;
    const manifest = manifests.find((m) => m.id === target.capability_id);
    const credential = manifest?.credentials.find((c) => c.name === target.credential_name);
    const at = `agent.yaml: install_steps.${step.id}.store_as`;
    if (target.scope !== "system_credential") problems.push(`${at}.scope: is "${target.scope}": Selu's wizard stores only system_credential`);
    else if (!credential) problems.push(`${at}: names ${target.capability_id}/${target.credential_name}, which no manifest in the package declares`);
    else if (credential.scope !== "system") problems.push(`${at}: ${target.credential_name} has scope ${credential.scope}, expected system`);
  }
}
