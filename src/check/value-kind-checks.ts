/**
 * How the checker judges a key's value, by its kind (`language/value-kinds.ts` says what
 * each kind is and how the runtime reads it). Kinds judged by the literal alone answer
 * true or false, and false gets the generic "Key 'k' in tool 'x' must be …." message;
 * kinds that name declarations report an unknown or wrong name with their own message
 * (and did-you-mean) and answer true. The switch is exhaustive: a new kind does not
 * compile until it is judged here.
 */
import type { ConfigValue, Decl } from "../syntax/ast";
import { KIND_NOUN, MODEL_CALLABLE_KINDS, withArticle } from "../language/declaration-nouns";
import { firstNonConstant, literalAccepts, type ValueKind } from "../language/value-kinds";
import { CHECK_TOOL_AUDIENCE_DIAGNOSTICS } from "../diagnostics/catalog/check-tool-audience-codes";
import type { CheckContext } from "./context";
import { messages, type CheckMessage } from "./messages";
import { declHints } from "./suggestions";
import { checkAgentToolItem } from "./agent-tool-items";

const MODEL_CALLABLE = new Set<string>(MODEL_CALLABLE_KINDS);
const singleName = (v: ConfigValue) => (v.kind === "Path" && v.parts.length === 1 ? v.parts[0] : undefined);

/** Returns false for the generic message; reports its own messages itself. */
export function checkValueKind(kind: ValueKind, v: ConfigValue, ctx: CheckContext, where?: () => { key: string; owner: string }): boolean {
  switch (kind.tag) {
    case "str":
    case "bool":
    case "num":
    case "nonNegative":
    case "int":
    case "oneOf":
    case "envName":
    case "fieldPath":
    case "stringList":
      return literalAccepts(kind, v);
    case "schemaRef":
      return checkDeclRef(v, ctx, "schema", messages.unknownSchema, ["Schema", "Union"]);
    case "modelRef":
      return checkDeclRef(v, ctx, "model", messages.unknownModel, ["Model"]);
    case "datasourceRef":
      return checkDeclRef(v, ctx, "datasource", messages.unknownDatasource, ["Datasource"]);
    case "toolList":
      return checkToolList(v, ctx);
    case "agentList":
      return checkAgentList(v, ctx);
    case "constObject":
      return checkConstObject(v, ctx, where);
    case "approvalSpec":
      // `true`/`false`, or a schema (an object the approver fills in, field by field).
      return literalAccepts(kind, v) && (v.kind !== "Path" || checkApprovalSchema(v, ctx));
  }
}

/** A bare name of a declaration of one kind; an undeclared name gets its own message. */
function checkDeclRef(v: ConfigValue, ctx: CheckContext, noun: string, unknown: (name: string) => CheckMessage, kinds: Decl["kind"][]): boolean {
  const name = singleName(v);
  if (name === undefined) return false;
  const decl = ctx.symbols.byName.get(name);
  if (!decl) ctx.report(unknown(name), v.span, { hints: declHints(ctx, kinds, name) });
  else if (KIND_NOUN[decl.kind] !== noun) ctx.report(messages.wrongKind(name, withArticle(KIND_NOUN[decl.kind]), noun), v.span);
  return true;
}

/** `approval: Note`: a plain schema — a tagged union cannot be asked field by field. */
function checkApprovalSchema(v: ConfigValue, ctx: CheckContext): boolean {
  if (!checkDeclRef(v, ctx, "schema", messages.unknownSchema, ["Schema"])) return false;
  const name = singleName(v)!;
  if (ctx.symbols.byName.get(name)?.kind === "Union") ctx.report(messages.wrongKind(name, "a tagged union", "plain schema"), v.span);
  return true;
}

/** An agent's `tools`: names of declared tools, queries or commands, each once. */
function checkToolList(v: ConfigValue, ctx: CheckContext): boolean {
  if (v.kind !== "List") return false;
  const seen = new Set<string>();
  for (const item of v.items) {
    // `Refunds.handle`: another agent's method, offered as the tool `Refunds_handle`.
    if (item.kind === "Path" && item.parts.length > 1) {
      const offered = checkAgentToolItem(item, ctx);
      if (offered !== undefined && seen.has(offered)) ctx.report(messages.duplicateMember("tool", offered, "tools"), item.span);
      if (offered !== undefined) seen.add(offered);
      continue;
    }
    const name = singleName(item);
    if (name === undefined) return false;
    const decl = ctx.symbols.byName.get(name);
    if (!decl) ctx.report(messages.unknownTool(name), item.span, { hints: declHints(ctx, MODEL_CALLABLE_KINDS, name) });
    else if (!MODEL_CALLABLE.has(decl.kind)) ctx.report(messages.wrongKind(name, withArticle(KIND_NOUN[decl.kind]), "tool"), item.span);
    else if (seen.has(name)) ctx.report(messages.duplicateMember("tool", name, "tools"), item.span);
    seen.add(name);
  }
  return true;
}

/** An agent's `handoffs`: bare names of declared agents, each once (E1104; the other handoff rules: rules/agent-handoffs.ts). */
function checkAgentList(v: ConfigValue, ctx: CheckContext): boolean {
  if (v.kind !== "List") return false;
  const seen = new Set<string>();
  for (const item of v.items) {
    const name = singleName(item);
    if (name === undefined) return false;
    const decl = ctx.symbols.byName.get(name);
    if (!decl) ctx.report(messages.handoffNotAgent(name, "not declared"), item.span, { hints: declHints(ctx, ["Agent"], name) });
    else if (decl.kind !== "Agent") ctx.report(messages.handoffNotAgent(name, withArticle(KIND_NOUN[decl.kind])), item.span);
    else if (seen.has(name)) ctx.report(messages.duplicateMember("agent", name, "handoffs"), item.span);
    seen.add(name);
  }
  return true;
}

/** A constant object (a tool's `metadata`): not an object is the generic message; a bare name inside, its own (E0270). */
function checkConstObject(v: ConfigValue, ctx: CheckContext, where?: () => { key: string; owner: string }): boolean {
  if (v.kind !== "Obj") return false;
  const found = firstNonConstant(v);
  if (found) {
    const hint = CHECK_TOOL_AUDIENCE_DIAGNOSTICS.metadataNotConstant.hints.quote(found.name);
    const { key, owner } = where?.() ?? { key: "metadata", owner: "its block" };
    ctx.report(messages.metadataNotConstant(key, owner, found.at, found.name), found.value.span, { hints: [hint] });
  }
  return true;
}
