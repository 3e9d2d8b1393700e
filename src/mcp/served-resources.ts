/**
 * A program's `query` declarations as MCP resources: a query only reads (the checker holds
 * its `sql` to the datasource's read side, and the pipeline treats it as a read), so reading
 * it is what a resource is. A query without parameters is a resource,
 * `luma://query/<name>`; one with parameters is a resource template,
 * `luma://query/<name>{?a,b}` (RFC 6570 form-style query), and a URI of that form reads it
 * with those arguments.
 *
 * A read goes through the same pipeline as a `tools/call` of the query (policy, scopes,
 * validation, cache, trace…); the contents are the query's JSON result, as
 * `application/json` text. The arguments come as text in the URI and are read by the
 * parameter's type (an `int` from `?limit=3`); the pipeline's validation then judges them as
 * it judges a tool call's.
 */
import { INVALID_PARAMS, ProtocolError, RESOURCE_NOT_FOUND } from "./protocol-error";
import type { ServedPipelineTool, ServedTool } from "./served-tools";

type JsonSchema = Record<string, unknown>;

const PREFIX = "luma://query/";

export interface ServedResources {
  resources: { uri: string; name: string; title?: string; description?: string; mimeType: string }[];
  templates: { uriTemplate: string; name: string; title?: string; description?: string; mimeType: string }[];
  /** The query and its arguments a URI reads; a −32602 / −32002 error when it reads none. */
  resolve(uri: string): { query: ServedPipelineTool; input: Record<string, unknown> };
}

const propertiesOf = (q: ServedPipelineTool) => (q.inputSchema.properties ?? {}) as Record<string, JsonSchema>;

const notFound = (uri: string) => new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });

/** One argument's text read as its parameter's JSON type; text that does not read stays text, for validation to name. */
function argumentValue(text: string, schema: JsonSchema): unknown {
  const type = schema.type;
  if (type === "string" || (type === undefined && Array.isArray(schema.enum))) return text;
  if (type === "integer" || type === "number") return text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
  if (type === "boolean") return text === "true" ? true : text === "false" ? false : text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The resources of the served queries (commands write: they are tools only). */
export function servedResources(tools: readonly ServedTool[]): ServedResources {
  const queries = tools.filter((t): t is ServedPipelineTool => t.kind === "tool" && t.statement === "query");
  const byName = new Map(queries.map((q) => [q.name, q]));
  const entry = (q: ServedPipelineTool) => ({ name: q.name, description: q.description, mimeType: "application/json" });
  return {
    resources: queries.filter((q) => Object.keys(propertiesOf(q)).length === 0).map((q) => ({ uri: `${PREFIX}${q.name}`, ...entry(q) })),
    templates: queries
      .filter((q) => Object.keys(propertiesOf(q)).length > 0)
      .map((q) => ({ uriTemplate: `${PREFIX}${q.name}{?${Object.keys(propertiesOf(q)).join(",")}}`, ...entry(q) })),
    resolve(uri) {
      if (!uri.startsWith(PREFIX)) throw notFound(uri);
      let url: URL;
      try {
        url = new URL(uri);
      } catch {
        throw new ProtocolError(INVALID_PARAMS, `Invalid resource URI: ${uri}`);
      }
      const query = byName.get(decodeURIComponent(url.pathname.replace(/^\/+/, "")));
      if (query === undefined) throw notFound(uri);
      const properties = propertiesOf(query);
      const input: Record<string, unknown> = {};
      for (const [name, text] of url.searchParams) {
        const schema = properties[name];
        if (schema === undefined) throw new ProtocolError(INVALID_PARAMS, `Resource ${PREFIX}${query.name} has no parameter '${name}' (parameters: ${Object.keys(properties).join(", ") || "none"}).`);
        input[name] = argumentValue(text, schema);
      }
      return { query, input };
    },
  };
}
