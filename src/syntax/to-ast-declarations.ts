/**
 * CST → AST for declarations and the program. Block bodies that mix kinds (a tool's
 * options and `needs`, an agent's entries and methods) are split by the converted
 * node's `kind`.
 */
import type * as ohm from "ohm-js";
import type {
  AgentDecl,
  Decl,
  Entry,
  Field,
  FnDecl,
  ImportDecl,
  NeedsEntry,
  Program,
  QueryDecl,
  SchemaDecl,
  ReplaySetup,
  Stmt,
  TestDecl,
  EvalDecl,
  ToolDecl,
  UnionDecl,
} from "./ast";
import { itemsWithoutSeps, parseContext, spanOf, toAst } from "./parse-context";
import { secondFileReplay } from "./to-ast-tests";

type Node = ohm.Node;

/** The `kind`s of declarations (the rest of a program's items are statements). */
export const DECL_KINDS: ReadonlySet<string> = new Set<string>(["Schema", "Union", "Tool", "Model", "Agent", "Fn", "Datasource", "Query", "Command"]);

/** The `name` and `nameSpan` every declaration carries. */
const named = (name: Node) => ({ name: name.sourceString, nameSpan: spanOf(name) });

export const declarationActions: ohm.ActionDict<unknown> = {
  Program(_bom: Node, _shebang: Node, items: Node): Program {
    const decls: Decl[] = [];
    const body: Stmt[] = [];
    const tests: TestDecl[] = [];
    const evals: EvalDecl[] = [];
    const imports: ImportDecl[] = [];
    let replay: ReplaySetup | undefined;
    const { file, diagnostics } = parseContext();
    for (const node of itemsWithoutSeps<Decl | Stmt | TestDecl | EvalDecl | ReplaySetup | ImportDecl>(items)) {
      if (node.kind === "Test") tests.push(node);
      else if (node.kind === "Eval") evals.push(node);
      else if (node.kind === "Import") imports.push(node);
      else if (node.kind === "Replay") {
        if (replay) diagnostics.push(secondFileReplay(node.span));
        replay = node;
      } else if (DECL_KINDS.has(node.kind)) decls.push(node as Decl);
      else body.push(node as Stmt);
    }
    const program: Program = { kind: "Program", file, decls, body, span: { file, start: 0, end: this.source.sourceString.length } };
    if (tests.length > 0) program.tests = tests;
    if (evals.length > 0) program.evals = evals;
    if (replay) program.replay = replay;
    if (imports.length > 0) program.imports = imports;
    return program;
  },

  SchemaDecl(_kw: Node, name: Node, _open: Node, fields: Node, _close: Node): SchemaDecl {
    return { kind: "Schema", ...named(name), fields: itemsWithoutSeps(fields), span: spanOf(this) };
  },
  UnionDecl(
    _kw: Node, name: Node, _eq: Node, first: Node, _bars: Node, rest: Node, _tagged: Node, _by: Node, tag: Node,
  ): UnionDecl {
    return {
      kind: "Union",
      ...named(name),
      members: [first, ...rest.children].map((m) => ({ name: m.sourceString, span: spanOf(m) })),
      tag: tag.sourceString,
      tagSpan: spanOf(tag),
      span: spanOf(this),
    };
  },
  ToolDecl(
    _kw: Node, name: Node, _lp: Node, params: Node, _rp: Node,
    _arrow: Node, returns: Node, _open: Node, items: Node, _close: Node,
  ): ToolDecl {
    const options: Entry[] = [];
    const needs: NeedsEntry[] = [];
    for (const item of itemsWithoutSeps<Entry | NeedsEntry>(items)) {
      if (item.kind === "Needs") needs.push(item);
      else options.push(item);
    }
    return { kind: "Tool", ...named(name), params: toAst(params), returns: toAst(returns), options, needs, span: spanOf(this) };
  },
  NeedsEntry(_kw: Node, name: Node, _colon: Node, type: Node): NeedsEntry {
    return { kind: "Needs", ...named(name), type: toAst(type), span: spanOf(this) };
  },
  ModelDecl(_kw: Node, name: Node, entries: Node) {
    return { kind: "Model", ...named(name), entries: toAst(entries), span: spanOf(this) };
  },
  DatasourceDecl(_kw: Node, name: Node, entries: Node) {
    return { kind: "Datasource", ...named(name), entries: toAst(entries), span: spanOf(this) };
  },
  AgentDecl(_kw: Node, name: Node, params: Node, _open: Node, items: Node, _close: Node): AgentDecl {
    const entries: Entry[] = [];
    const methods: FnDecl[] = [];
    for (const item of itemsWithoutSeps<Entry | FnDecl>(items)) {
      if (item.kind === "Fn") methods.push(item);
      else entries.push(item);
    }
    const agent: AgentDecl = { kind: "Agent", ...named(name), entries, methods, span: spanOf(this) };
    if (params.numChildren > 0) agent.params = toAst(params.child(0));
    return agent;
  },
  AgentParams(_open: Node, params: Node, _close: Node): Field[] {
    return toAst(params);
  },
  FnDecl(_kw: Node, name: Node, _lp: Node, params: Node, _rp: Node, returns: Node, body: Node): FnDecl {
    const fn: FnDecl = { kind: "Fn", ...named(name), params: toAst(params), body: toAst(body), span: spanOf(this) };
    if (returns.numChildren > 0) fn.returns = toAst(returns.child(0));
    return fn;
  },
  ReturnType(_arrow: Node, type: Node) {
    return toAst(type);
  },
  QueryDecl(kw: Node, name: Node, _lp: Node, params: Node, _rp: Node, _arrow: Node, returns: Node, entries: Node): QueryDecl {
    return {
      kind: kw.sourceString === "query" ? "Query" : "Command",
      ...named(name),
      params: toAst(params),
      returns: toAst(returns),
      entries: toAst(entries),
      span: spanOf(this),
    };
  },
};
