/**
 * An MCP server's `elicitation/create` request, answered by the person at the terminal
 * (the run's `askValue`, only when stdin is interactive). The client announces the
 * elicitation capability (form mode) only then; without a person the request is refused
 * as one the client never announced.
 *
 * The form's fields are asked one by one; a field left empty takes its `default`, and a
 * default the person never saw is applied too (SEP-1034: the server's defaults fill what the
 * answer leaves out). The answer is checked against the requested schema before it is sent
 * (required fields, primitive types, enums); a declined question is `decline`. A URL-mode
 * request (open a page) is declined: Luma does not open pages for a server.
 *
 * In a durable run with nobody at the terminal, a request made during one of the run's tool
 * calls is answered from the journal, or recorded as waiting (runtime/tools/steps/journaled-questions.ts).
 *
 * Under `luma mcp` the request is not Luma's to answer: it goes to the client of the served
 * call that reached this server (forward-elicitation.ts), form or URL mode as sent.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AskValue } from "../runtime/tools/tool-invoker-types";
import type { ForwardersInFlight } from "./forward-elicitation";

type JsonSchema = Record<string, unknown>;

/** The defaults of the form's fields, added where the answer has no value (SEP-1034). */
export function withDefaults(schema: JsonSchema, content: Record<string, unknown>): Record<string, unknown> {
  const filled = { ...content };
  for (const [name, field] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
    if (filled[name] === undefined && field.default !== undefined) filled[name] = field.default;
  }
  return filled;
}

const TYPE_OF: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
};

/** The first problem of an answer with the requested (flat) schema; undefined when it fits. */
export function formProblem(schema: JsonSchema, value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "the answer must be an object";
  const answer = value as Record<string, unknown>;
  const fields = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const name of (schema.required ?? []) as string[]) if (answer[name] === undefined) return `'${name}' is required`;
  for (const [name, v] of Object.entries(answer)) {
    const field = fields[name];
    if (field === undefined) return `'${name}' is not a field of the form`;
    const fits = TYPE_OF[field.type as string];
    if (fits !== undefined && !fits(v)) return `'${name}' must be ${field.type === "integer" ? "an integer" : `a ${field.type}`}`;
    if (Array.isArray(field.enum) && !field.enum.includes(v)) return `'${name}' must be one of ${field.enum.map((e) => JSON.stringify(e)).join(", ")}`;
  }
  return undefined;
}

/** How long a person is given to answer one request. */
const ANSWER_WITHIN_MS = 600_000;

/**
 * Answers the server's elicitation requests on this client: forwarded to the client of the
 * served call that reached the server (`luma mcp`, forward-elicitation.ts), else by asking the
 * person at the terminal; neither there, the request is declined.
 */
export function answerElicitation(client: Client, server: string, askPerson: AskValue | undefined, calls: ForwardersInFlight, forward: boolean, redact: (text: string) => string): void {
  const forwarders = forward ? calls : undefined;
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    if (forwarders?.any) {
      const forward = forwarders.only();
      return forward === undefined ? { action: "decline" } : ((await forward(request.params as Record<string, unknown>)) as never);
    }
    const params = request.params as { mode?: string; message: string; requestedSchema?: JsonSchema };
    const journaled = askPerson === undefined ? calls.onlyJournaled() : undefined;
    if (journaled !== undefined && params.mode !== "url" && params.requestedSchema !== undefined) {
      const schema = params.requestedSchema;
      const got = await journaled.answer({ server, message: params.message, shown: redact(params.message), schema, problem: (value) => formProblem(schema, withDefaults(schema, value as Record<string, unknown>)) });
      // Waiting: the server is told the question was cancelled; the call then stops the run (remote-call.ts).
      return got === "wait" ? { action: "cancel" } : { action: "accept", content: withDefaults(schema, got.value) as never };
    }
    if (askPerson === undefined || params.mode === "url" || params.requestedSchema === undefined) return { action: "decline" };
    const schema = params.requestedSchema;
    const answer = await askPerson({
      purpose: "elicitation",
      tool: server,
      args: params.message,
      schemaName: "answer",
      jsonSchema: schema,
      problem: (value) => formProblem(schema, withDefaults(schema, value as Record<string, unknown>)),
      withinMs: ANSWER_WITHIN_MS,
    });
    if (answer === undefined) return { action: "decline" };
    return { action: "accept", content: withDefaults(schema, answer.value as Record<string, unknown>) as never };
  });
}
