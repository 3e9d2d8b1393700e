/**
 * Declarations for the fast parser (grammar.ohm § declarations: `Decl` and its eight
 * alternatives), building the nodes of `to-ast-declarations.ts`. A declaration that does
 * not match leaves the item to the statements (`tool t(x)` is a tool call, `query q(x)` a
 * database call), as the grammar's ordered `TopItem` does.
 */
import type { AgentDecl, Decl, Entry, Field, FnDecl, NeedsEntry, TypeRef } from "../ast";
import { itemsThenClose, parseEntry, parseEntryBlock } from "./fast-config";
import { type FastState, char, ident, keyword, lit, span, word } from "./fast-scanner";
import { parseBlock } from "./fast-statements";
import { parseField, parseParamsThenClose, parseType } from "./fast-types";

type DeclRule = (s: FastState, start: number) => Decl | undefined;

/** The name every declaration carries, after its keyword: `ident`. */
function named(s: FastState): { name: string; nameSpan: ReturnType<typeof span> } | undefined {
  const start = ident(s);
  return start < 0 ? undefined : { name: s.src.slice(start, s.pos), nameSpan: span(s, start, s.pos) };
}

/**
 * `Decl`, by the keyword at `start` (after the skip): the alternatives it can open, in order.
 * A Map, not an object: a name such as `constructor` must find nothing.
 */
export const DECLARATIONS: ReadonlyMap<string, DeclRule[]> = new Map<string, DeclRule[]>([
  ["schema", [schemaDecl, unionDecl]],
  ["tool", [toolDecl]],
  ["model", [(s, start) => entriesDecl(s, start, "Model")]],
  ["agent", [agentDecl]],
  ["fn", [fnDecl]],
  ["datasource", [(s, start) => entriesDecl(s, start, "Datasource")]],
  ["query", [(s, start) => queryDecl(s, start, "Query")]],
  ["command", [(s, start) => queryDecl(s, start, "Command")]],
]);

function schemaDecl(s: FastState, start: number): Decl | undefined {
  s.pos = start + 6;
  const name = named(s);
  const fields = name && char(s, 123) ? itemsThenClose(s, parseField) : undefined;
  return name && fields && { kind: "Schema", ...name, fields, span: span(s, start, s.pos) };
}

/** `UnionDecl = kwSchema ident "=" ident ("|" ident)* kwTagged kwBy identName`. */
function unionDecl(s: FastState, start: number): Decl | undefined {
  s.pos = start + 6;
  const name = named(s);
  if (!name || !char(s, 61)) return undefined;
  const members: { name: string; span: ReturnType<typeof span> }[] = [];
  for (let first = true; ; first = false) {
    const before = s.pos;
    const member = first || char(s, 124) ? ident(s) : -1;
    if (member < 0) {
      if (first) return undefined;
      s.pos = before;
      break;
    }
    members.push({ name: s.src.slice(member, s.pos), span: span(s, member, s.pos) });
  }
  const tag = keyword(s, "tagged") >= 0 && keyword(s, "by") >= 0 ? word(s) : -1;
  if (tag < 0) return undefined;
  const tagText = s.src.slice(tag, s.pos);
  return { kind: "Union", ...name, members, tag: tagText, tagSpan: span(s, tag, s.pos), span: span(s, start, s.pos) };
}

/** `"(" Params ")" "->" Type`: the signature of a tool, query or command. */
function signature(s: FastState): { params: Field[]; returns: TypeRef } | undefined {
  const params = char(s, 40) ? parseParamsThenClose(s) : undefined;
  const returns = params && lit(s, "->") ? parseType(s) : undefined;
  return params && returns ? { params, returns } : undefined;
}

/** `ToolDecl = kwTool ident "(" Params ")" "->" Type "{" (ToolItem | sep)* "}"`. */
function toolDecl(s: FastState, start: number): Decl | undefined {
  s.pos = start + 4;
  const name = named(s);
  const sig = name && signature(s);
  const items = sig && char(s, 123) ? itemsThenClose<Entry | NeedsEntry>(s, (t) => needsEntry(t) ?? parseEntry(t)) : undefined;
  if (!name || !sig || !items) return undefined;
  const options: Entry[] = [];
  const needs: NeedsEntry[] = [];
  for (const item of items) {
    if (item.kind === "Needs") needs.push(item);
    else options.push(item);
  }
  return { kind: "Tool", ...name, params: sig.params, returns: sig.returns, options, needs, span: span(s, start, s.pos) };
}

/** `NeedsEntry = kwNeeds ident ":" Type`. */
function needsEntry(s: FastState): NeedsEntry | undefined {
  const save = s.pos;
  const start = keyword(s, "needs");
  const name = start >= 0 ? named(s) : undefined;
  const type = name && char(s, 58) ? parseType(s) : undefined;
  if (name && type) return { kind: "Needs", ...name, type, span: span(s, start, s.pos) };
  s.pos = save;
  return undefined;
}

/** `ModelDecl` / `DatasourceDecl` = keyword ident EntryBlock. */
function entriesDecl(s: FastState, start: number, kind: "Model" | "Datasource"): Decl | undefined {
  s.pos = start + kind.length;
  const name = named(s);
  const entries = name && parseEntryBlock(s);
  return name && entries && { kind, ...name, entries, span: span(s, start, s.pos) };
}

/**
 * `AgentDecl = kwAgent ident AgentParams? "{" (AgentItem | sep)* "}"`,
 * `AgentParams = "(" Params ")"`, `AgentItem = FnDecl | Entry`.
 */
function agentDecl(s: FastState, start: number): Decl | undefined {
  s.pos = start + 5;
  const name = named(s);
  const params = name && char(s, 40) ? parseParamsThenClose(s) : undefined;
  const items = name && char(s, 123) ? itemsThenClose<Entry | FnDecl>(s, (t) => methodDecl(t) ?? parseEntry(t)) : undefined;
  if (!name || !items) return undefined;
  const entries: Entry[] = [];
  const methods: FnDecl[] = [];
  for (const item of items) {
    if (item.kind === "Fn") methods.push(item);
    else entries.push(item);
  }
  const agent: AgentDecl = { kind: "Agent", ...name, entries, methods, span: span(s, start, s.pos) };
  if (params) agent.params = params;
  return agent;
}

function methodDecl(s: FastState): FnDecl | undefined {
  const save = s.pos;
  const start = keyword(s, "fn");
  const fn = start >= 0 ? fnDecl(s, start) : undefined;
  if (!fn) s.pos = save;
  return fn;
}

/** `FnDecl = kwFn ident "(" Params ")" ReturnType? Block`, `ReturnType = "->" Type`. */
function fnDecl(s: FastState, start: number): FnDecl | undefined {
  s.pos = start + 2;
  const name = named(s);
  const params = name && char(s, 40) ? parseParamsThenClose(s) : undefined;
  if (!name || !params) return undefined;
  const beforeReturns = s.pos;
  const returns = lit(s, "->") ? parseType(s) : undefined;
  if (!returns) s.pos = beforeReturns;
  const body = parseBlock(s);
  if (!body) return undefined;
  const fn: FnDecl = { kind: "Fn", ...name, params, body, span: span(s, start, s.pos) };
  if (returns) fn.returns = returns;
  return fn;
}

/** `QueryDecl = (kwQuery | kwCommand) ident "(" Params ")" "->" Type EntryBlock`. */
function queryDecl(s: FastState, start: number, kind: "Query" | "Command"): Decl | undefined {
  s.pos = start + kind.length;
  const name = named(s);
  const sig = name && signature(s);
  const entries = sig && parseEntryBlock(s);
  if (!name || !sig || !entries) return undefined;
  return { kind, ...name, params: sig.params, returns: sig.returns, entries, span: span(s, start, s.pos) };
}
