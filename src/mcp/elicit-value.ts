/**
 * A person's value asked of the MCP client (`elicitation/create`, on the stream of the
 * tools/call it belongs to): a client tool's answer (`handler: "client"`) or an approval's
 * note (`approval: Schema`). The pipeline's `askValue` for calls that come through `luma mcp`.
 *
 * Elicitation forms are flat: an object of strings, numbers, integers, booleans and string
 * enums. A schema that fits is sent as its own form (each field with its bounds); a richer
 * one (nested objects, arrays, unions) is asked as one JSON text field, `json`, described by
 * the schema, and parsed. Either way the value is validated with the program's own validator
 * before it is taken; one that fails is refused with the field's problem, not recorded.
 *
 * A client that did not declare the elicitation capability cannot be asked: the call fails
 * with CLIENT_TOOL_UNANSWERED (an answer) or TOOL_PERMISSION_DENIED (an approval's note). A
 * decline or a cancel is a refusal; nobody answering within the tool's timeout is one too.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { runtimeError } from "../diagnostics/luma-error";
import type { AskValue, ValueRequest } from "../runtime/tools/tool-invoker-types";

type JsonSchema = Record<string, unknown>;

/** setTimeout's largest delay: a tool timeout past it waits that long. */
const MAX_TIMER_MS = 2_147_483_647;

const PRIMITIVE_KEYS: Record<string, readonly string[]> = {
  // `default` on every kind of field: 2025-11-25 (SEP-1034); a client fills the form with it.
  string: ["type", "title", "description", "minLength", "maxLength", "format", "enum", "default"],
  number: ["type", "title", "description", "minimum", "maximum", "default"],
  integer: ["type", "title", "description", "minimum", "maximum", "default"],
  boolean: ["type", "title", "description", "default"],
};

const FORMATS = new Set(["email", "uri", "date", "date-time"]);

/** The field as an elicitation form field, or undefined when it is not one (an array, an object, a reference, a pattern…). */
const formField = (s: JsonSchema): JsonSchema | undefined => {
  const keys = PRIMITIVE_KEYS[s.type as string];
  if (keys === undefined || Object.keys(s).some((k) => !keys.includes(k))) return undefined;
  if (s.format !== undefined && !FORMATS.has(s.format as string)) return undefined;
  if (s.enum !== undefined && !(s.enum as unknown[]).every((e) => typeof e === "string")) return undefined;
  return s;
};

/** The schema as a flat form, or undefined when some field needs more than elicitation's forms hold. */
const flatForm = (schema: JsonSchema): JsonSchema | undefined => {
  if (schema.type !== "object" || schema.$defs !== undefined || schema.anyOf !== undefined) return undefined;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, field] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    const f = formField(field);
    if (f === undefined) return undefined;
    properties[name] = f;
  }
  return { type: "object", properties, required: schema.required ?? [] };
};

const jsonForm = (req: ValueRequest): JsonSchema => ({
  type: "object",
  properties: {
    json: { type: "string", title: `${req.schemaName} (JSON)`, description: `One JSON value of this JSON Schema: ${JSON.stringify(req.jsonSchema)}` },
  },
  required: ["json"],
});

const cannotAsk = (req: ValueRequest) =>
  req.purpose === "answer"
    ? runtimeError("CLIENT_TOOL_UNANSWERED", `Client tool '${req.tool}' needs an answer (a ${req.schemaName}) from the caller: the MCP client cannot be asked (it does not support elicitation).`)
    : runtimeError("TOOL_PERMISSION_DENIED", `Tool '${req.tool}' needs approval with a ${req.schemaName}: the MCP client cannot be asked (it does not support elicitation).`);

const refused = (req: ValueRequest, why: string) =>
  req.purpose === "answer"
    ? runtimeError("CLIENT_TOOL_UNANSWERED", `Client tool '${req.tool}' was not answered: ${why}.`)
    : runtimeError("TOOL_PERMISSION_DENIED", `Tool '${req.tool}' was not approved: ${why}.`);

const message = (req: ValueRequest): string =>
  req.purpose === "answer"
    ? `Client tool '${req.tool}' is called with ${req.args}: answer with a ${req.schemaName}.`
    : `Approve a call of tool '${req.tool}' with ${req.args}? Accept with a ${req.schemaName}; decline to refuse.`;

/** The SDK's McpError writes "MCP error <code>: " before its message. */
export const withoutPrefix = (message: string): string => message.replace(/^MCP error -?\d+: /, "");

/** The asker for one tools/call of a session. */
export const elicitValue =
  (server: Server, call: { signal: AbortSignal; requestId: string | number }): AskValue =>
  async (req) => {
    if (!server.getClientCapabilities()?.elicitation) throw cannotAsk(req);
    const flat = flatForm(req.jsonSchema);
    const asking = server.elicitInput(
      { message: message(req), requestedSchema: (flat ?? jsonForm(req)) as never },
      { signal: call.signal, relatedRequestId: call.requestId, timeout: Math.min(req.withinMs, MAX_TIMER_MS) },
    );
    let answer: Awaited<typeof asking>;
    try {
      answer = await asking;
    } catch (e) {
      if (!(e instanceof McpError) || call.signal.aborted) throw e;
      if (e.code === ErrorCode.RequestTimeout) throw refused(req, `the MCP client did not answer within ${req.withinMs} ms (the tool's timeout)`);
      // The SDK checks an accepted form against the schema it asked with; a client may also answer
      // with an error. Either way nothing was given: a refusal that says why, not a RUNTIME_ERROR.
      throw refused(req, `the MCP client's answer was not taken: ${withoutPrefix(e.message)}`);
    }
    if (answer.action !== "accept") return undefined;
    let value: unknown = answer.content ?? {};
    if (flat === undefined) {
      const text = (answer.content as { json?: unknown } | undefined)?.json;
      try {
        value = JSON.parse(String(text));
      } catch {
        throw refused(req, `the MCP client's answer is not JSON`);
      }
    }
    const problem = req.problem(value);
    if (problem !== undefined) throw refused(req, `the MCP client's value is not a valid ${req.schemaName}: ${problem}`);
    return { value };
  };
