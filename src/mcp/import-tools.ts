/**
 * `luma mcp import NAME`: Luma `tool` declarations, with their schemas, for every tool a
 * configured MCP server lists — generated from the JSON Schemas, so that nobody writes
 * contracts by hand. The output checks (`luma check`) and fits the server by construction.
 *
 * JSON Schema → Luma: string/integer/number/boolean → string/int/float/bool (`enum` of
 * strings → `enum[…]`), arrays → `T[]`, objects with properties → a schema of their own,
 * anything else (`anyOf`, free objects, several types) → `any`. `description`, `default`,
 * bounds, `pattern`, `format` and item counts become annotations. An MCP name that is not a
 * Luma name gets a Luma one plus `mcp_tool: "<name>"`.
 *
 * Everything the server supplies is untrusted text: names, descriptions, enum values,
 * patterns. It reaches the file only as a Luma string literal (quote), as a name made of
 * letters, digits and `_` (lumaName, pascal) that is not a keyword and not taken, or, in a
 * comment, as a JSON string (no raw newline ends the comment early). A property name holding
 * a newline once ended its `//` comment and put the rest of the line into the file as a
 * declaration of the server's choosing (a destructive tool marked `side_effects: "none"`).
 *
 * The contract's other half is chosen conservatively: `side_effects` is "read" only for a
 * tool the server marks `readOnlyHint`, else "write" (the protocol's default hints say a
 * tool may be destructive). A tool without `outputSchema` returns `McpResult` — its text
 * and every content block as a typed `McpContent` (content-values.ts, whose declarations
 * the output then carries): the list cannot say what such a tool returns, and this contract
 * takes all of it (plain text, JSON text, images, audio, resources, links). A tool with an
 * `outputSchema` returns a schema made from it (its `structuredContent`).
 */
import { loadConfig } from "../config/load-config";
import { startupError } from "../diagnostics/luma-error";
import { connectServer, type RemoteTool } from "./connect-server";
import { MCP_CONTENT_LUMA } from "./content-values";

type JsonSchema = Record<string, unknown>;

const FORMATS = new Set(["email", "uri", "uuid", "date", "date-time"]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A Luma string literal: the escapes the grammar knows; other control characters become spaces. */
const quote = (s: string) =>
  `"${s.replace(/[\\"{}]/g, (c) => `\\${c}`).replace(/\n/g, "\\n").replace(/\t/g, "\\t").replace(/[\u0000-\u001f\u007f]/g, " ")}"`;

/** A server-supplied name inside a `//` comment: a JSON string, so no character of it ends the comment. */
const shown = (name: string) => JSON.stringify(name).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/**
 * The grammar's keywords (grammar.ohm `keyword`): never a tool's name. A copy, as mcp/ may not
 * import syntax/; a server tool named like one gets a `_` after it.
 */
const KEYWORDS = new Set([
  "agent", "ask", "and", "break", "by", "catch", "command", "continue", "datasource", "else", "enum",
  "fn", "for", "false", "if", "in", "model", "needs", "null", "not",
  "or", "query", "return", "schema", "tool", "try", "tagged", "true", "using", "while",
]);

const pascal = (name: string) => {
  const joined = name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join("") || "Tool";
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
};

const lumaName = (name: string) => {
  const cleaned = name.replace(/[^A-Za-z0-9_]/g, "_") || "tool_";
  const named = /^[0-9]/.test(cleaned) ? `t_${cleaned}` : cleaned;
  return KEYWORDS.has(named) ? `${named}_` : named;
};

/** Nesting deeper than this becomes `any`. */
const MAX_DEPTH = 32;

const isSchema = (v: unknown): v is JsonSchema => v !== null && typeof v === "object" && !Array.isArray(v);

const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Annotations for one property, in the spec's order of appearance. */
function annotations(s: JsonSchema): string[] {
  const out: string[] = [];
  if (typeof s.description === "string" && s.description !== "") out.push(`@desc(${quote(s.description)})`);
  const d = s.default;
  if (typeof d === "string") out.push(`@default(${quote(d)})`);
  else if (num(d) || typeof d === "boolean") out.push(`@default(${d})`);
  if (num(s.minimum) && num(s.maximum)) out.push(`@range(${s.minimum}, ${s.maximum})`);
  else if (num(s.minimum)) out.push(`@min(${s.minimum})`);
  else if (num(s.maximum)) out.push(`@max(${s.maximum})`);
  if (num(s.maxLength)) out.push(`@length(${num(s.minLength) ? s.minLength : 0}, ${s.maxLength})`);
  if (typeof s.pattern === "string") out.push(`@pattern(${quote(s.pattern)})`);
  if (typeof s.format === "string" && FORMATS.has(s.format)) out.push(`@format(${quote(s.format)})`);
  if (num(s.maxItems)) out.push(`@items(${num(s.minItems) ? s.minItems : 0}, ${s.maxItems})`);
  return out;
}

/** The names MCP_CONTENT_LUMA declares: no generated schema takes them. */
const CONTENT_SCHEMAS = ["McpText", "McpImage", "McpAudio", "McpResource", "McpResourceLink", "McpContent", "McpResult"];

class Generator {
  readonly schemas: string[] = [];
  private readonly taken = new Set<string>(CONTENT_SCHEMAS);
  /** Some tool returns McpResult: the output carries the content declarations. */
  usesContent = false;

  uniqueName(wanted: string): string {
    let name = wanted;
    for (let i = 2; this.taken.has(name); i++) name = `${wanted}${i}`;
    this.taken.add(name);
    return name;
  }

  typeOf(s: unknown, nameHint: string, depth = 0): string {
    // Not a schema, or nested past any sane contract (a deep one overflowed the stack): `any`.
    if (!isSchema(s) || depth > MAX_DEPTH) return "any";
    const type = s.type;
    if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v) => typeof v === "string")) {
      return `enum[${(s.enum as string[]).map(quote).join(", ")}]`;
    }
    switch (type) {
      case "string":
        return "string";
      case "integer":
        return "int";
      case "number":
        return "float";
      case "boolean":
        return "bool";
      case "array":
        return `${this.typeOf(s.items, nameHint, depth + 1)}[]`;
      case "object":
        return isSchema(s.properties) && Object.keys(s.properties).length > 0 ? this.schema(nameHint, s, depth + 1) : "any";
      default:
        return "any";
    }
  }

  /** The fields of an object schema, each `name: Type @annotations`; names Luma cannot spell are left out, said in a comment. */
  fields(s: JsonSchema, owner: string, depth = 0): { lines: string[]; skipped: string[] } {
    const required = new Set(Array.isArray(s.required) ? s.required : []);
    const lines: string[] = [];
    const skipped: string[] = [];
    for (const [name, prop] of Object.entries(isSchema(s.properties) ? s.properties : {})) {
      if (!IDENTIFIER.test(name)) {
        skipped.push(name);
        continue;
      }
      const type = this.typeOf(prop, `${owner}${pascal(name)}`, depth);
      const optional = required.has(name) ? "" : "?";
      lines.push([`${name}${optional}: ${type}`, ...(isSchema(prop) ? annotations(prop) : [])].join(" "));
    }
    return { lines, skipped };
  }

  schema(wanted: string, s: JsonSchema, depth = 0): string {
    const name = this.uniqueName(wanted);
    const { lines, skipped } = this.fields(s, name, depth);
    const note = skipped.map((f) => `  // field ${shown(f)} is not a Luma name: left out`);
    this.schemas.push([`schema ${name} {`, ...lines.map((l) => `  ${l}`), ...note, "}"].join("\n"));
    return name;
  }
}

function declaration(gen: Generator, server: string, tool: RemoteTool & { annotations?: Record<string, unknown> }, toolNames: Set<string>): string {
  // Two server names may clean up to one Luma name (`a-b`, `a_b`): the second gets a number.
  let name = lumaName(tool.name);
  for (let i = 2, wanted = name; toolNames.has(name); i++) name = `${wanted}${i}`;
  toolNames.add(name);
  const base = pascal(tool.name);
  const params = gen.fields(tool.inputSchema, `${base}Input`);
  const output = tool.outputSchema;
  const structured = output?.type === "object" && isSchema(output.properties) && Object.keys(output.properties).length > 0;
  if (!structured) gen.usesContent = true;
  const returns = structured ? gen.schema(`${base}Result`, output) : "McpResult";
  const readOnly = tool.annotations?.readOnlyHint === true;
  const task = tool.execution?.taskSupport === "required" ? "// a task-based tool: called as a task (call now, fetch later)\n" : "";
  const body = [`  mcp: ${quote(server)}`];
  if (name !== tool.name) body.push(`  mcp_tool: ${quote(tool.name)}`);
  body.push(`  side_effects: ${quote(readOnly ? "read" : "write")}`);
  if (typeof tool.description === "string" && tool.description !== "") body.push(`  description: ${quote(tool.description)}`);
  const skipped = params.skipped.map((f) => `// ${shown(tool.name)}: parameter ${shown(f)} is not a Luma name and was left out\n`).join("");
  const list = params.lines.length === 0 ? "" : `\n${params.lines.map((l) => `  ${l}`).join(",\n")}\n`;
  return `${skipped}${task}tool ${name}(${list}) -> ${returns} {\n${body.join("\n")}\n}`;
}

export async function importServerTools(opts: {
  server: string;
  configPath?: string;
  cwd: string;
  env: Record<string, string | undefined>;
  /** One line for the person (an authorization URL to open). */
  notice?: (line: string) => void;
}): Promise<string> {
  const { config, path, projectDir } = await loadConfig({ configPath: opts.configPath, programDir: opts.cwd, cwd: opts.cwd });
  const servers = config.mcp_servers ?? {};
  if (!Object.hasOwn(servers, opts.server)) {
    const known = Object.keys(servers).join(", ") || "none";
    throw startupError(`MCP server '${opts.server}' is not declared in mcp_servers of ${path ?? "luma.config.json"} (declared: ${known}).`, { catalogCode: "E0803" });
  }
  const conn = await connectServer({ name: opts.server, entry: servers[opts.server], env: opts.env, cwd: projectDir, notice: opts.notice });
  try {
    const gen = new Generator();
    const toolNames = new Set<string>();
    const tools = [...conn.tools.values()].map((t) => declaration(gen, opts.server, t, toolNames));
    const header = `// Generated by \`luma mcp import ${opts.server}\`: the ${tools.length} tool(s) MCP server '${opts.server}' lists.\n`;
    const content = gen.usesContent ? [MCP_CONTENT_LUMA] : [];
    return `${header}\n${[...content, ...gen.schemas, ...tools].join("\n\n")}\n`;
  } finally {
    await conn.close();
  }
}
