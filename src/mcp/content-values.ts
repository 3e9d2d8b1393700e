/**
 * What a `tools/call` result's content becomes in a Luma program. Every content type of the
 * protocol — text, image, audio, embedded resource, resource link — is a typed value of one
 * built-in schema, `McpContent` (a tagged union told apart by `kind`), so nothing a server
 * returns is silently dropped. `luma mcp import` writes these declarations (MCP_CONTENT_LUMA)
 * into its output, and docs/mcp.md shows them; the runtime builds the values here.
 *
 * A contract chooses what it takes (`resultShape`):
 * - `content`: its return schema has a `content` field — it gets `{ text, content }`: the
 *   text blocks joined, and every block as an `McpContent` (what import writes, `McpResult`);
 * - `text`: it is exactly `{ text: string }` — the text as it came; a result holding any
 *   other content fails the call, naming the server and tool (it would be lost);
 * - `value`: any other schema — `structuredContent`, else a JSON-object text, else `{ text }`;
 *   non-text content fails the call the same way.
 * The wire's field names are kept (`mimeType`), so the values read as the protocol's pages do.
 */
import { LumaToolError } from "../luma-module";

/** The built-in schema, as Luma source: written by `luma mcp import`, shown in docs/mcp.md. */
export const MCP_CONTENT_LUMA = `// The content of an MCP tool result (Luma's built-in MCP content schema; see docs/mcp.md).
schema McpText {
  text: string
  annotations?: any
}

schema McpImage {
  data: string @desc("base64")
  mimeType: string
  annotations?: any
}

schema McpAudio {
  data: string @desc("base64")
  mimeType: string
  annotations?: any
}

schema McpResource {
  uri: string
  mimeType?: string
  text?: string
  blob?: string @desc("base64")
  annotations?: any
}

schema McpResourceLink {
  uri: string
  name: string
  title?: string
  description?: string
  mimeType?: string
  size?: int
  annotations?: any
}

schema McpContent = McpText | McpImage | McpAudio | McpResource | McpResourceLink tagged by kind

schema McpResult {
  text: string @desc("the text blocks, joined by newlines")
  content: McpContent[]
}`;

export type ResultShape = "content" | "text" | "value";

/** Which of the three a contract's return schema (as JSON Schema) takes. */
export function resultShape(output: Record<string, unknown>): ResultShape {
  const properties = output.properties as Record<string, { type?: unknown }> | undefined;
  if (output.type !== "object" || properties === undefined) return "value";
  if (Object.hasOwn(properties, "content")) return "content";
  return Object.keys(properties).length === 1 && properties.text?.type === "string" ? "text" : "value";
}

type Block = Record<string, unknown>;
type Value = Record<string, unknown>;

const str = (v: unknown): v is string => typeof v === "string";

/** Copies the named fields that are present (a missing optional field stays absent, not null). */
const pick = (from: Block, kind: string, fields: readonly string[]): Value => {
  const value: Value = { kind };
  for (const f of fields) if (from[f] !== undefined && from[f] !== null) value[f] = from[f];
  return value;
};

/** The wire's `type` → the member of McpContent, with the fields it keeps. */
const MEMBERS: Record<string, (b: Block) => Value | undefined> = {
  text: (b) => (str(b.text) ? pick(b, "McpText", ["text", "annotations"]) : undefined),
  image: (b) => (str(b.data) && str(b.mimeType) ? pick(b, "McpImage", ["data", "mimeType", "annotations"]) : undefined),
  audio: (b) => (str(b.data) && str(b.mimeType) ? pick(b, "McpAudio", ["data", "mimeType", "annotations"]) : undefined),
  resource: (b) => {
    const r = b.resource as Block | undefined;
    if (r === undefined || r === null || typeof r !== "object" || !str(r.uri)) return undefined;
    return { ...pick(r, "McpResource", ["uri", "mimeType", "text", "blob"]), ...(b.annotations ? { annotations: b.annotations } : {}) };
  },
  resource_link: (b) =>
    str(b.uri) && str(b.name) ? pick(b, "McpResourceLink", ["uri", "name", "title", "description", "mimeType", "size", "annotations"]) : undefined,
};

export const blocksOf = (content: unknown): Block[] =>
  Array.isArray(content) ? content.filter((c): c is Block => c !== null && typeof c === "object") : [];

export const textOf = (content: unknown): string =>
  blocksOf(content)
    .filter((c) => c.type === "text" && str(c.text))
    .map((c) => c.text as string)
    .join("\n");

/** Where a call happened, for the messages: `MCP server 'docs' … tool 'search'`. */
export interface CallSite {
  server: string;
  tool: string;
  remoteName: string;
}

const unfit = (at: CallSite, types: string[]) =>
  new LumaToolError({
    code: "MCP_RESULT_UNFIT",
    message:
      `MCP server '${at.server}' answered tool '${at.tool}'${at.remoteName === at.tool ? "" : ` ('${at.remoteName}')`} with ${types.join(", ")} content, ` +
      `which its return schema cannot take: give the schema a field \`content: McpContent[]\` (as \`luma mcp import\` writes it).`,
  });

/** Every block as an McpContent value; a block of an unknown type or missing its fields fails the call. */
export function contentValues(content: unknown, at: CallSite): Value[] {
  return blocksOf(content).map((b) => {
    const make = str(b.type) && Object.hasOwn(MEMBERS, b.type) ? MEMBERS[b.type] : undefined;
    const value = make?.(b);
    if (value === undefined) {
      throw new LumaToolError({
        code: "MCP_ERROR",
        message: `MCP server '${at.server}' answered tool '${at.tool}' with a content block Luma cannot read (type ${JSON.stringify(String(b.type)).slice(0, 60)}).`,
      });
    }
    return value;
  });
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The value a successful result gives a contract of the given shape. */
export function resultValue(result: Record<string, unknown>, shape: ResultShape, at: CallSite, takesText: boolean): unknown {
  const text = textOf(result.content);
  if (shape === "content") {
    const content = contentValues(result.content, at);
    return takesText ? { text, content } : { content };
  }
  if (result.structuredContent !== undefined) return result.structuredContent;
  const others = [...new Set(blocksOf(result.content).map((b) => String(b.type)).filter((t) => t !== "text"))];
  if (others.length > 0) throw unfit(at, others);
  if (shape === "text") return { text };
  const parsed = parseJson(text);
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : { text };
}
