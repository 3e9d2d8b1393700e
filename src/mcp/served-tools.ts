/**
 * What `luma mcp FILE` offers in `tools/list`: one entry per declared tool (and query or
 * command) of the served agent — every one in the program without `--agent` — and one per
 * agent `fn` method, named `Agent.method`. Computed once at start-up, as plain data; the
 * call side (serve-call.ts) reads the same entries.
 *
 * The contract becomes the MCP tool as far as the protocol can say it:
 * - `inputSchema` is `__tool_<name>_input`, the JSON Schema a model gets; a method's is its
 *   parameters as one object, compiled the same way (annotations included);
 * - `outputSchema` is the return type. MCP wants an object there: a tagged union (an
 *   `anyOf` of objects) gets `type: "object"` beside it, and any other type is wrapped as
 *   `{ result: T }` — the structured result is wrapped the same way;
 * - `description` is the tool's `description` option, else a sentence naming the tool and
 *   its side effects (clients, and the conformance suite, expect one on every tool);
 * - `title` is the tool's `title` option (a method has none);
 * - annotations come from the contract: `readOnlyHint` for `side_effects` none/read,
 *   `destructiveHint` for write (a query reads, a command writes), `idempotentHint` for
 *   `idempotent: true`, `openWorldHint` for what reaches past this machine (an `mcp:` tool, a
 *   module handler, a datasource that is not SQLite) and false for what cannot (a client tool
 *   answers through the caller itself, SQLite is a local file). An agent method's are its
 *   tools' together: read-only when all are, destructive or open-world when one is;
 * - input and output schemas say they are JSON Schema 2020-12 (`$schema`), and a parameter
 *   whose type is a declared schema refers to it in `$defs` (what the conformance suite's
 *   `json-schema-2020-12` scenario reads);
 * - `_meta` is the tool's `metadata` option (a constant object, never shown to a model).
 * A tool with `audience: "code"` is not served: an MCP client is a model's host, and such a
 * tool is for the program's own code only (docs/language/tools.md "Who sees a tool").
 */
import type { AgentDecl, Field, FnDecl, Program, QueryDecl, ToolDecl, TypeRef } from "../syntax/ast";
import type { SchemaTable } from "../schema/schema-table-types";
import { toJsonSchema } from "../schema/json-schema";
import { createShapeCompiler } from "../schema/compile-shape";
import { toTypeBox } from "../schema/to-typebox";
import { ShapeValidator } from "../schema/validator";
import type { ObjectShape } from "../schema/shape";
import { askSettingsOf } from "../runtime/tools/steps/agent-ask-settings";
import { readStatementEntries } from "../runtime/datasources/statement-entries";
import { readToolOptions } from "../runtime/tools/steps/tool-options";
import { startupError } from "../diagnostics/luma-error";
import { isLocalDatasource } from "../runtime/datasources/datasource-reach";

type JsonSchema = Record<string, unknown>;

export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

interface ServedBase {
  /** The MCP tool name: the tool's own, or `Agent.method`. */
  name: string;
  /** The tool's `title` option: a human-readable name (2025-06-18 and later). */
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** The result goes out as `{ result: value }` (its type is not an object). */
  wrapsResult: boolean;
  /** The tool's `metadata` option: tools/list's `_meta`. */
  meta?: Readonly<Record<string, unknown>>;
}

/** A tool (or query, command) run through the pipeline under `agent`'s settings. */
export interface ServedPipelineTool extends ServedBase {
  kind: "tool";
  tool: string;
  agent?: AgentDecl;
  /** The tool's `scope` option: an OAuth session sees the tool only when its token grants it. */
  scope?: string;
  /** A query (served as a resource too) or a command; absent for a tool. */
  statement?: "query" | "command";
  /** The tool declares `error: Schema`: a typed error's `details` were validated and may go out. */
  typedErrors: boolean;
}

/** An agent method run through the interpreter (its `ask`s and tool calls included). */
export interface ServedMethod extends ServedBase {
  kind: "method";
  agent: AgentDecl;
  method: FnDecl;
  /** Checks (and fills defaults of) the arguments object before they bind by position. */
  validateInput(args: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; messages: string[] };
}

export type ServedTool = ServedPipelineTool | ServedMethod;

const OBJECT_TYPES = new Set(["object"]);

/** An object schema stays; an anyOf of objects gets `type: "object"`; anything else is wrapped. */
const asObjectSchema = (schema: JsonSchema): { schema: JsonSchema; wraps: boolean } => {
  if (OBJECT_TYPES.has(schema.type as string)) return { schema, wraps: false };
  const members = schema.anyOf as JsonSchema[] | undefined;
  if (schema.type === undefined && Array.isArray(members) && members.every((m) => m.type === "object")) {
    return { schema: { type: "object", ...schema }, wraps: false };
  }
  return { schema: { type: "object", properties: { result: schema }, required: ["result"], additionalProperties: false }, wraps: true };
};

const SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

const outputOf = (schemas: SchemaTable, returns: TypeRef | undefined) => {
  if (returns === undefined) return { outputSchema: undefined, wrapsResult: true };
  const { schema, wraps } = asObjectSchema(toJsonSchema(schemas.typeOf(returns)));
  return { outputSchema: { $schema: SCHEMA_2020_12, ...schema }, wrapsResult: wraps };
};

/** The input schema with each parameter of a declared schema's type as a `$ref` into `$defs`. */
const inputOf = (schemas: SchemaTable, compiled: JsonSchema, params: readonly Field[]): JsonSchema => {
  const properties = { ...((compiled.properties ?? {}) as Record<string, JsonSchema>) };
  const defs: Record<string, JsonSchema> = {};
  for (const p of params) {
    const t = p.type;
    if (t.kind !== "NamedType" || properties[p.name] === undefined || schemas.named(t.name) === undefined) continue;
    const own = properties[p.name];
    defs[t.name] = toJsonSchema(schemas.typeOf(t));
    // Annotations of the parameter itself (its @desc, @default) stay beside the reference.
    const { type: _t, properties: _p, required: _r, additionalProperties: _a, anyOf: _any, ...beside } = own;
    properties[p.name] = { ...beside, $ref: `#/$defs/${t.name}` };
  }
  const withDefs = Object.keys(defs).length === 0 ? compiled : { ...compiled, properties, $defs: defs };
  return { $schema: SCHEMA_2020_12, ...withDefs };
};

function pipelineTool(program: Program, schemas: SchemaTable, decl: ToolDecl | QueryDecl, agent: AgentDecl | undefined): ServedPipelineTool {
  const inputSchema = inputOf(schemas, toJsonSchema(schemas.toolInput(decl.name)), decl.params);
  const base = { kind: "tool" as const, name: decl.name, tool: decl.name, agent, inputSchema };
  if (decl.kind !== "Tool") {
    const writes = decl.kind === "Command";
    const entries = readStatementEntries(decl);
    const annotations = { readOnlyHint: !writes, destructiveHint: writes, openWorldHint: !isLocalDatasource(program, entries.source) };
    const description = entries.description ?? `Runs the ${writes ? "command" : "query"} ${decl.name} (SQL).`;
    const statement = writes ? ("command" as const) : ("query" as const);
    return { ...base, statement, description, annotations, wrapsResult: true, typedErrors: false, outputSchema: undefined };
  }
  const o = readToolOptions(decl);
  const annotations: ToolAnnotations = { readOnlyHint: o.sideEffects !== "write", destructiveHint: o.sideEffects === "write" };
  if (o.idempotent) annotations.idempotentHint = true;
  annotations.openWorldHint = o.handler !== "client";
  const description = o.description ?? `Luma tool ${decl.name} (side_effects: "${o.sideEffects}").`;
  return { ...base, scope: o.scope, title: o.title, description, annotations, meta: o.metadata, typedErrors: o.error !== undefined, ...outputOf(schemas, decl.returns) };
}

/** An agent method's hints: its tools' together (a method that calls no tool only reads). */
const methodAnnotations = (agentTools: readonly ServedTool[]): ToolAnnotations => ({
  readOnlyHint: agentTools.every((t) => t.annotations?.readOnlyHint !== false),
  destructiveHint: agentTools.some((t) => t.annotations?.destructiveHint === true),
  openWorldHint: agentTools.some((t) => t.annotations?.openWorldHint === true),
});

function methodTool(program: Program, schemas: SchemaTable, agent: AgentDecl, method: FnDecl, agentTools: readonly ServedTool[]): ServedMethod {
  const name = `${agent.name}.${method.name}`;
  const shape: ObjectShape = createShapeCompiler(program).objectOf(`__method_${agent.name}_${method.name}_input`, method.params as Field[]);
  const validator = new ShapeValidator();
  return {
    kind: "method",
    name,
    agent,
    method,
    // Its `///` doc comment (issue #27), else a sentence naming it.
    description: method.doc ?? `Agent method ${name} (runs the method, including its ask and tool calls).`,
    inputSchema: inputOf(schemas, toJsonSchema(toTypeBox(shape)), method.params),
    ...outputOf(schemas, method.returns),
    annotations: methodAnnotations(agentTools),
    validateInput(args) {
      const r = validator.validate(shape, args ?? {}, "input", `${name}.input`);
      return r.ok ? { ok: true, value: r.value as Record<string, unknown> } : { ok: false, messages: r.hard.map((i) => i.message) };
    },
  };
}

/** Every tool `luma mcp` serves, in declaration order: tools first, then agent methods. */
export function servedTools(program: Program, schemas: SchemaTable, agentName: string | undefined): ServedTool[] {
  const agents = program.decls.filter((d): d is AgentDecl => d.kind === "Agent");
  const agent = agentName === undefined ? undefined : agents.find((a) => a.name === agentName);
  if (agentName !== undefined && agent === undefined) {
    const known = agents.map((a) => a.name).join(", ") || "none";
    throw startupError(`--agent ${agentName}: the program declares no agent '${agentName}' (agents: ${known}).`, { catalogCode: "E0806" });
  }
  const callable = program.decls.filter(
    (d): d is ToolDecl | QueryDecl => (d.kind === "Tool" && readToolOptions(d).audience !== "code") || d.kind === "Query" || d.kind === "Command",
  );
  let offered = callable;
  if (agent) {
    const names = new Set(askSettingsOf(agent).tools);
    offered = callable.filter((d) => names.has(d.name));
  }
  const tools: ServedTool[] = offered.map((d) => pipelineTool(program, schemas, d, agent));
  const methods: ServedTool[] = [];
  // Without --agent, an agent with parameters is not served: only `--agent NAME --agent-args` gives them.
  for (const a of agent ? [agent] : agents.filter((x) => (x.params?.length ?? 0) === 0)) {
    const names = new Set(askSettingsOf(a).tools);
    const agentTools = callable.filter((d) => names.has(d.name)).map((d) => pipelineTool(program, schemas, d, a));
    for (const m of a.methods) methods.push(methodTool(program, schemas, a, m, agentTools));
  }
  return [...tools, ...methods];
}
