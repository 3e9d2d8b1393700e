/**
 * An agent declaration the program did not write, made for a request that comes from outside
 * it — an MCP server's sampling request (`mcp_servers.<name>.sampling`) is asked as an agent
 * named `mcp:<server>` with the configured model and the request's system prompt, no tools.
 * Made here, where the agent keys are defined, so the runtime only reads declarations and
 * never spells a key's AST form itself.
 */
import type { AgentDecl, ConfigValue, Entry, Span } from "../syntax/ast";

/** Where a made declaration "is": the config that asked for it. */
const CONFIG_SITE: Span = { file: "luma.config.json", start: 0, end: 0 } as Span;

const entry = (key: "model" | "system", value: ConfigValue): Entry => ({ kind: "Entry", key, keySpan: CONFIG_SITE, value, span: CONFIG_SITE });

export function madeAgent(name: string, model: string, system: string | undefined): AgentDecl {
  return {
    kind: "Agent",
    name,
    entries: [
      entry("model", { kind: "Path", parts: [model], span: CONFIG_SITE }),
      ...(system === undefined ? [] : [entry("system", { kind: "Lit", value: system, span: CONFIG_SITE })]),
    ],
    methods: [],
    span: CONFIG_SITE,
    nameSpan: CONFIG_SITE,
  };
}
