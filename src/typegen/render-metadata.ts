/**
 * A tool's `metadata` option in the generated types (issue #25 §5): an interface of literal
 * types, `<Name>Metadata`, so a host that reads the metadata (MCP `_meta`, trace events)
 * can type it from the same declaration. Written only for a tool that declares metadata,
 * right after its handler type; the rest of the layout is unchanged.
 *
 *   /** The `metadata` of tool 'fetch_doc' (never sent to the model). *\/
 *   export interface FetchDocMetadata {
 *     readonly owner: "docs-team";
 *     readonly tags: readonly ["read"];
 *   }
 */
import { propertyName } from "./render-interface";

/** A constant as its TypeScript literal type. */
function literalType(value: unknown): string {
  if (Array.isArray(value)) return `readonly [${value.map(literalType).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value).map(([k, v]) => `readonly ${propertyName(k)}: ${literalType(v)}`);
    return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`;
  }
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

export function renderMetadata(name: string, tool: string, metadata: Readonly<Record<string, unknown>>): string {
  const lines = [`/** The \`metadata\` of tool '${tool}' (never sent to the model). */`];
  const entries = Object.entries(metadata);
  if (entries.length === 0) return `${lines[0]}\nexport interface ${name} {}`;
  lines.push(`export interface ${name} {`);
  for (const [key, value] of entries) lines.push(`  readonly ${propertyName(key)}: ${literalType(value)};`);
  lines.push("}");
  return lines.join("\n");
}
