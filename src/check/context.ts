/**
 * The checker's context, built once per program and handed to every rule: the symbol
 * tables, the program's code units and what each name in them refers to (read from the one
 * name resolution, `language/name-resolution.ts`), small lookups the rules share, and the diagnostics sink.
 *
 * Rules never stop at the first problem; they `report` and go on. What they report always
 * carries a diagnostic code: a `CheckMessage` from `messages.ts` has one, and plain text
 * is accepted only with an explicit `code` (the type rules report their catalog entries'
 * text with its code: `diagnostics/catalog/type-codes.ts`).
 */
import { error, warning, type Diagnostic, type DiagnosticExtra, type Severity } from "../diagnostics/diagnostic";
import type { DiagnosticCode } from "../diagnostics/catalog";
import type { AgentDecl, Entry, FnDecl, Program, SchemaDecl, Span, TypeRef, UnionDecl } from "../syntax/ast";
import type { BlockKey } from "../language/key-blocks";
import type { CheckMessage } from "./messages";
import { buildSymbols, type Symbols } from "./symbols";
import { resolutionOf, type ResolvedUnit } from "../language/name-resolution";

/**
 * A body of code with its own variable scope: the name resolution's unit
 * (`language/name-resolution.ts`), which also answers what a name means in it.
 */
export type CodeUnit = ResolvedUnit;

/** What a type reference denotes. */
export type ResolvedType =
  | { kind: "schema"; decl: SchemaDecl }
  | { kind: "union"; decl: UnionDecl }
  /** A NamedType naming nothing. */
  | { kind: "missing" }
  /** A NamedType naming a declaration that is not a schema (a tool, a model…). */
  | { kind: "not-a-type" }
  | { kind: "PrimType" | "EnumType" | "ArrayType" };

export interface CheckContext {
  program: Program;
  symbols: Symbols;
  units: readonly CodeUnit[];
  diagnostics: Diagnostic[];
  /** An error; `hints` are "did you mean" lines and other first-hour advice. */
  report: Reporter;
  /** A warning: shown on every run and by `luma check`, never rejects the program. */
  warn: Reporter;
  resolveType(ref: TypeRef): ResolvedType;
  /** The entry of a declaration block with this key (the first, if repeated); a key of some key table. */
  entry(entries: readonly Entry[], key: BlockKey): Entry | undefined;
  /** The names listed in an agent's `tools` (only well-formed single-name items). */
  agentTools(agent: AgentDecl): Set<string>;
  /** The agent's methods by name (the first, if repeated). */
  agentMethods(agent: AgentDecl): Map<string, FnDecl>;
}

/** Hints beside a coded message; a code beside plain text. */
export interface Reporter {
  (message: CheckMessage, span?: Span, extra?: { hints?: string[] }): void;
  (message: string, span: Span | undefined, extra: DiagnosticExtra & { code: DiagnosticCode }): void;
}

const diagnosticOf = (severity: Severity, message: CheckMessage | string, span: Span | undefined, extra?: DiagnosticExtra): Diagnostic => {
  const make = severity === "error" ? error : warning;
  if (typeof message === "string") return make(message, span, extra);
  return make(message.text, span, { code: message.code, hints: extra?.hints });
};

/** The answers without a declaration, shared (every field's type is resolved, some several times). */
const WRITTEN_TYPE: Record<"PrimType" | "EnumType" | "ArrayType", ResolvedType> = {
  PrimType: { kind: "PrimType" },
  EnumType: { kind: "EnumType" },
  ArrayType: { kind: "ArrayType" },
};
const MISSING: ResolvedType = { kind: "missing" };
const NOT_A_TYPE: ResolvedType = { kind: "not-a-type" };

export function createContext(program: Program): CheckContext {
  const symbols = buildSymbols(program);
  const diagnostics: Diagnostic[] = [];
  const toolsCache = new Map<AgentDecl, Set<string>>();
  const methodsCache = new Map<AgentDecl, Map<string, FnDecl>>();

  const entry = (entries: readonly Entry[], key: BlockKey) => entries.find((e) => e.key === key);

  return {
    program,
    symbols,
    units: resolutionOf(program).units,
    diagnostics,
    report: (message: CheckMessage | string, span?: Span, extra?: DiagnosticExtra) =>
      void diagnostics.push(diagnosticOf("error", message, span, extra)),
    warn: (message: CheckMessage | string, span?: Span, extra?: DiagnosticExtra) =>
      void diagnostics.push(diagnosticOf("warning", message, span, extra)),
    entry,
    resolveType(ref) {
      if (ref.kind !== "NamedType") return WRITTEN_TYPE[ref.kind];
      const schema = symbols.schemas.get(ref.name);
      if (schema) return { kind: "schema", decl: schema };
      const union = symbols.unions.get(ref.name);
      if (union) return { kind: "union", decl: union };
      return symbols.byName.has(ref.name) ? NOT_A_TYPE : MISSING;
    },
    agentTools(agent) {
      let names = toolsCache.get(agent);
      if (!names) {
        names = new Set();
        const value = entry(agent.entries, "tools")?.value;
        if (value?.kind === "List") {
          for (const item of value.items) if (item.kind === "Path" && item.parts.length === 1) names.add(item.parts[0]);
        }
        toolsCache.set(agent, names);
      }
      return names;
    },
    agentMethods(agent) {
      let methods = methodsCache.get(agent);
      if (!methods) {
        methods = new Map();
        for (const m of agent.methods) if (!methods.has(m.name)) methods.set(m.name, m);
        methodsCache.set(agent, methods);
      }
      return methods;
    },
  };
}
