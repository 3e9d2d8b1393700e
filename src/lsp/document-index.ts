/**
 * Who names what: every definition in a program (declarations, schema fields, agent
 * methods, parameters, variables) and every occurrence that refers to one, each with its
 * exact source range. Go to definition, find references, rename and the hover all read
 * this one table, so they always agree.
 *
 * Names resolve as the checker and the runtime resolve them — all three read the program's
 * one name resolution (`language/name-resolution.ts`): each code unit (top-level code, a
 * fn, an agent method, a `test` block) has its parameters and its variables, each defined
 * at its first binding (an assignment, a `for` or a `catch`), and every name in code has
 * its target there. A field read `a.b` resolves through the typer: the type of `a` names
 * the schema. Built from the units' flat listings, never recursion on the input's depth.
 *
 * A test document also sees the declarations of the file it tests (`seen`): its names
 * resolve to those, but the index holds occurrences of its own file only — offsets of the
 * other file mean nothing here. A definition is identified by its file, name and place
 * (`sameDefinition`), not by object, so two documents' indexes agree on it: references
 * and rename across a test file and its program join the two.
 */
import type { AgentDecl, Decl, Entry, ConfigValue, EvalDecl, Expr, Field, FnDecl, Program, Span, Stmt, TestDecl, TypeRef } from "../syntax/ast";
import { membersOf, type Type } from "../check/types/type-model";
import { boundNameOf } from "../language/ast-children";
import { resolutionOf, type NameTarget, type ResolvedUnit } from "../language/name-resolution";
import { forEachInExpr } from "../language/walk";
import { assertNever } from "../syntax/assert-never";
import { systemTemplateOf } from "../language/agent-context";

export type DefKind = Decl["kind"] | "Field" | "Method" | "Param" | "Variable";

export interface Definition {
  name: string;
  kind: DefKind;
  /** The name where it is defined. */
  nameSpan: Span;
  /** The whole definition (a declaration, a field with its annotations). */
  span: Span;
  /** The schema of a field, the agent of a method. */
  container?: string;
  /** A field's declaration, a parameter's field, a declaration. */
  node?: Decl | Field | FnDecl;
  /** A variable's first value, for its type (a `for` variable: the iterable, whose element it is). */
  value?: Expr;
  iterates?: boolean;
}

export interface Occurrence {
  start: number;
  end: number;
  def: Definition;
}

/**
 * A code unit: a fn or agent method, a `test` block, or `null` for the top level; an agent
 * itself for what its parameters reach outside its methods (`system`, `when` conditions).
 */
export type UnitKey = FnDecl | TestDecl | EvalDecl | AgentDecl | null;

export interface DocumentIndex {
  /** The definitions in this document. */
  defs: Definition[];
  /** Sorted by start; definitions themselves included. All in this document. */
  occurrences: Occurrence[];
  /** The variables (and parameters) of each code unit. */
  unitNames: Map<UnitKey, Map<string, Definition>>;
  at(offset: number): Occurrence | undefined;
  /** The occurrences here of `def`, which may come from another document's index. */
  referencesTo(def: Definition): Occurrence[];
  /** This document's definition that is `def` (found through another document's index). */
  definitionOf(def: Definition): Definition | undefined;
}

/** The same definition, however found: the same name at the same place of the same file. */
export const sameDefinition = (x: Definition, y: Definition): boolean =>
  x.nameSpan.start === y.nameSpan.start && x.name === y.name && x.nameSpan.file === y.nameSpan.file;

/**
 * `program`: the document's program as the checker saw it, the `seen` declarations of
 * another file (a test document's tested file) included; only this document's own code
 * and declarations are indexed.
 */
export function buildIndex(program: Program, types: ReadonlyMap<Expr, Type>, seen: readonly Decl[] = []): DocumentIndex {
  const seenDecls = new Set<Decl>(seen);
  const names = resolutionOf(program);
  const defs: Definition[] = [];
  const occurrences: Occurrence[] = [];
  const globals = new Map<string, Definition>();
  const fields = new Map<string, Definition>();
  const methods = new Map<string, Definition>();
  const unitNames = new Map<UnitKey, Map<string, Definition>>();

  const define = (d: Definition) => {
    defs.push(d);
    occurrences.push({ start: d.nameSpan.start, end: d.nameSpan.end, def: d });
    return d;
  };
  const refer = (start: number, end: number, def: Definition | undefined) => {
    if (def) occurrences.push({ start, end, def });
  };

  // The seen declarations first, as the checker types them: they are names here, but not in this document.
  const declare = (decl: Decl, here: boolean) => {
    const add = here ? define : (d: Definition) => d;
    const d: Definition = { name: decl.name, kind: decl.kind, nameSpan: decl.nameSpan, span: decl.span, node: decl };
    if (!globals.has(decl.name)) globals.set(decl.name, d);
    add(d);
    if (decl.kind === "Schema") {
      for (const f of decl.fields) {
        fields.set(`${decl.name}.${f.name}`, add({ name: f.name, kind: "Field", nameSpan: f.nameSpan, span: f.span, container: decl.name, node: f }));
      }
    }
    if (decl.kind === "Agent") {
      for (const m of decl.methods) {
        methods.set(`${decl.name}.${m.name}`, add({ name: m.name, kind: "Method", nameSpan: m.nameSpan, span: m.span, container: decl.name, node: m }));
      }
    }
  };
  for (const decl of program.decls) declare(decl, !seenDecls.has(decl));
  // An import line's names (and aliases) refer to the imported declaration (docs/language/imports.md).
  for (const line of program.imports ?? []) {
    for (const item of line.names) {
      refer(item.nameSpan.start, item.nameSpan.end, globals.get(item.name));
      if (item.aliasSpan) refer(item.aliasSpan.start, item.aliasSpan.end, globals.get(item.name));
    }
  }

  const typeRef = (ref: TypeRef) => {
    for (let r: TypeRef | undefined = ref; r; r = r.kind === "ArrayType" ? r.element : undefined) {
      // The span, not the name's length: an imported name's alias is read as the declared name (check/imports/).
      if (r.kind === "NamedType") refer(r.span.start, r.span.end, globals.get(r.name));
    }
  };
  const configValue = (value: ConfigValue) => {
    const pending = [value];
    while (pending.length > 0) {
      const v = pending.pop() as ConfigValue;
      switch (v.kind) {
        case "Path":
          refer(v.span.start, v.parts.length === 1 ? v.span.end : v.span.start + v.parts[0].length, globals.get(v.parts[0]));
          break;
        case "List":
          pending.push(...v.items);
          break;
        case "Obj":
          pending.push(...v.entries.map((e) => e.value));
          break;
        case "Lit":
          break;
        default:
          assertNever(v);
      }
    }
  };
  const entries = (list: readonly Entry[]) => list.forEach((e) => configValue(e.value));

  /** The fields `a.b` may read: the schema named by each member of a's type. */
  const fieldOf = (object: Expr, property: string): Definition | undefined => {
    const t = types.get(object);
    if (t) {
      for (const m of membersOf(t)) if (m.kind === "object" && m.name) {
        const f = fields.get(`${m.name}.${property}`);
        if (f) return f;
      }
    }
    if (object.kind === "Name") return methods.get(`${object.name}.${property}`);
    return undefined;
  };

  /** The definition a name's target has here (a builtin, `args` and an unknown name have none). */
  const definitionOfTarget = (scope: ReadonlyMap<string, Definition>, target: NameTarget | undefined): Definition | undefined => {
    switch (target?.kind) {
      case "param":
      case "variable":
        return scope.get(target.kind === "param" ? target.field.name : target.name);
      case "agent":
      case "fn":
      case "declaration":
        return globals.get(target.decl.name);
      case "method":
        return methods.get(`${target.agent.name}.${target.decl.name}`);
      case "lambdaParam":
        return lambdaParam(target.lambda);
      default:
        return undefined;
    }
  };

  /** An agent's parameters (issue #25): defined once, at the agent, in scope in its methods and its `when` conditions. */
  const contexts = new Map<AgentDecl, Map<string, Definition>>();
  const contextOf = (agent: AgentDecl): Map<string, Definition> => {
    let context = contexts.get(agent);
    if (!context) {
      context = new Map();
      contexts.set(agent, context);
      for (const p of agent.params ?? []) {
        context.set(p.name, define({ name: p.name, kind: "Param", nameSpan: p.nameSpan, span: p.span, container: agent.name, node: p }));
        typeRef(p.type);
      }
    }
    return context;
  };

  /** A lambda's parameter, defined once: a variable over the items of the call's list (`map(xs, (x) => …)`: x is an item of xs). */
  const lambdaParams = new Map<Extract<Expr, { kind: "Lambda" }>, Definition>();
  const lambdaParam = (lambda: Extract<Expr, { kind: "Lambda" }>, list?: Expr): Definition => {
    let d = lambdaParams.get(lambda);
    if (!d) {
      d = define({ name: lambda.param, kind: "Variable", nameSpan: lambda.paramSpan, span: lambda.span, value: list, iterates: list !== undefined || undefined });
      lambdaParams.set(lambda, d);
    }
    return d;
  };

  /** A code unit's parameters and variables (from the name resolution), then every occurrence in its code. */
  const unit = (u: ResolvedUnit, key: UnitKey, extra: readonly Expr[] = []) => {
    const scope = new Map<string, Definition>(u.agent && u.context.length > 0 ? contextOf(u.agent) : undefined);
    unitNames.set(key, scope);
    for (const p of u.params) {
      const d = define({ name: p.name, kind: "Param", nameSpan: p.nameSpan, span: p.span, node: p });
      if (!scope.has(p.name)) scope.set(p.name, d);
      typeRef(p.type);
    }
    for (const [name, b] of u.variables) {
      const [nameSpan, value, iterates] = b.kind === "Assign" ? [b.nameSpan, b.value] : b.kind === "For" ? [b.nameSpan, b.iterable, true] : [b.errSpan];
      scope.set(name, define({ name, kind: "Variable", nameSpan, span: b.span, value, iterates }));
    }
    const expr = (e: Expr) => {
      // What an expression names itself; every expression of the unit comes by.
      switch (e.kind) {
        case "Name":
          refer(e.span.start, e.span.end, definitionOfTarget(scope, names.targetOf(e)));
          break;
        case "Member":
          refer(e.span.end - e.property.length, e.span.end, fieldOf(e.object, e.property));
          break;
        case "ToolCall":
          refer(e.toolSpan.start, e.toolSpan.end, globals.get(e.tool));
          break;
        case "DbCall":
          refer(e.nameSpan.start, e.nameSpan.end, globals.get(e.name));
          break;
        case "Ask":
          typeRef(e.target);
          if (e.usingTool) refer(e.usingTool.span.start, e.usingTool.span.end, globals.get(e.usingTool.name));
          break;
        case "Num":
        case "Str":
        case "Bool":
        case "Null":
        case "Array":
        case "Object":
        case "Index":
        case "Call":
        case "Binary":
        case "Unary":
        // Its variable and body are its loop's, a nested `for` of the unit.
        case "ParallelFor":
          break;
        case "Lambda":
          lambdaParam(e);
          break;
        default:
          assertNever(e);
      }
    };
    // Lambda parameters first, each with the list it ranges over (its type on hover).
    for (const call of u.flat.exprKinds.get("Call") ?? []) {
      const [list, lambda] = (call as Extract<Expr, { kind: "Call" }>).args;
      if (lambda?.kind === "Lambda") lambdaParam(lambda, list);
    }
    for (const list of u.flat.exprKinds.values()) list.forEach(expr);
    for (const e of extra) forEachInExpr(e, expr);
    for (const s of u.flat.stmts) {
      if (s.kind === "Assign" && s.type) typeRef(s.type);
      // A later binding of a name refers to its definition (the first binding, or the parameter).
      const name = boundNameOf(s);
      if (name === undefined || u.variables.get(name) === s) continue;
      const nameSpan = s.kind === "Try" ? s.errSpan : (s as Extract<Stmt, { kind: "Assign" | "For" }>).nameSpan;
      refer(nameSpan.start, nameSpan.end, scope.get(name));
    }
  };

  // The units of this document's code: not those of the seen file's fns and agents.
  for (const u of names.units) {
    const owner = u.agent ?? u.fn;
    if (owner && seenDecls.has(owner)) continue;
    if (u.test) for (const m of u.test.mocks) refer(m.modelSpan.start, m.modelSpan.end, globals.get(m.model));
    if (u.test) for (const m of u.test.stubs ?? []) refer(m.toolSpan.start, m.toolSpan.end, globals.get(m.tool));
    unit(u, u.fn ?? u.test ?? u.eval ?? (u.kind === "when" ? (u.agent ?? null) : null), u.test && [...u.test.mocks.map((m) => m.turns), ...(u.test.stubs ?? []).map((m) => m.answers)]);
  }
  for (const decl of program.decls) {
    if (seenDecls.has(decl)) continue;
    switch (decl.kind) {
      case "Schema":
        decl.fields.forEach((f) => typeRef(f.type));
        break;
      case "Union":
        for (const m of decl.members) refer(m.span.start, m.span.end, globals.get(m.name));
        break;
      case "Tool":
        decl.params.forEach((p) => typeRef(p.type));
        typeRef(decl.returns);
        entries(decl.options);
        decl.needs.forEach((n) => typeRef(n.type));
        break;
      case "Query":
      case "Command":
        decl.params.forEach((p) => typeRef(p.type));
        typeRef(decl.returns);
        entries(decl.entries);
        break;
      case "Model":
      case "Datasource":
        entries(decl.entries);
        break;
      case "Fn":
        if (decl.returns) typeRef(decl.returns);
        break;
      case "Agent": {
        entries(decl.entries);
        const context = contextOf(decl);
        if (!unitNames.has(decl)) unitNames.set(decl, context);
        for (const part of systemTemplateOf(decl) ?? []) {
          // `{user.name}` in `system`: the parameter it names.
          const root = typeof part === "string" ? undefined : /^\s*([A-Za-z_]\w*)/.exec(part.source);
          if (root && typeof part !== "string") refer(part.span.start + 1 + root[0].length - root[1].length, part.span.start + 1 + root[0].length, context.get(root[1]));
        }
        for (const m of decl.methods) {
          if (m.returns) typeRef(m.returns);
        }
        break;
      }
      default:
        assertNever(decl);
    }
  }

  occurrences.sort((a, b) => a.start - b.start);
  return {
    defs,
    occurrences,
    unitNames,
    at(offset) {
      // Binary search for the last occurrence starting at or before offset; ranges never nest.
      let lo = 0;
      let hi = occurrences.length - 1;
      let found: Occurrence | undefined;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (occurrences[mid].start <= offset) {
          found = occurrences[mid];
          lo = mid + 1;
        } else hi = mid - 1;
      }
      return found && offset <= found.end ? found : undefined;
    },
    referencesTo: (def) => occurrences.filter((o) => sameDefinition(o.def, def)),
    definitionOf: (def) => defs.find((d) => sameDefinition(d, def)),
  };
}
