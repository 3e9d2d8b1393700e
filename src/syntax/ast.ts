/**
 * The Luma AST: plain data, every node carrying the source span it came from.
 *
 * The parser (`parse.ts`) builds it — the fast parser directly, the Ohm path from its CST,
 * to the same nodes, spans and key order; the checker, the schema compiler,
 * the type generator and the interpreter only ever read it. Nothing here holds
 * behaviour, so a checked AST can be cached as JSON and read back unchanged.
 */

import type { Span } from "../diagnostics/span";

/** Where a node came from: the one `Span` of `diagnostics/`, re-exported for the AST's readers. */
export type { Span };

// ---------------------------------------------------------------- types

export type PrimName = "string" | "int" | "float" | "bool" | "any";

export type TypeRef =
  | { kind: "PrimType"; name: PrimName; span: Span }
  | { kind: "EnumType"; values: string[]; span: Span }
  | { kind: "ArrayType"; element: TypeRef; span: Span }
  /** A schema or tagged-union name. Unknown names are a check error. */
  | { kind: "NamedType"; name: string; span: Span };

/** A constant value written in source: annotation arguments, `@default(...)`. */
export type ConstValue = string | number | boolean | null | ConstValue[] | { [key: string]: ConstValue };

export interface Annotation {
  kind: "Annotation";
  /** Without the `@`: "desc", "range", ... */
  name: string;
  args: { value: ConstValue; span: Span }[];
  span: Span;
}

/** A schema field, a tool/query/command parameter, or a fn parameter. */
export interface Field {
  kind: "Field";
  name: string;
  /** Written with `name?:`. (A field with `@default` is optional too; the schema compiler decides.) */
  optional: boolean;
  type: TypeRef;
  annotations: Annotation[];
  span: Span;
  nameSpan: Span;
}

// ---------------------------------------------------------------- config entries

/** The value of a `key: value` entry in a declaration block (tool options, agent keys, model keys...). */
export type ConfigValue =
  /**
   * `template`: the `{…}` segments of a `system: "…"` string with the text around them, set
   * only when it has one (braces stay in `value` as written): an agent's `system`
   * interpolates the agent's parameters (docs/language/agents.md).
   */
  | { kind: "Lit"; value: string | number | boolean | null; span: Span; template?: TemplatePart[] }
  /**
   * A bare identifier or a dotted path: `request_id`, `input.request_id`, `GPT54Mini`, `ToolError`.
   * `when`: an item of a list written `name when COND` (an agent's `tools`: the tool is
   * available only while COND holds); the span is the name's.
   * `args`: an item written `Refunds(user).handle` (an agent's `tools`: a method of an agent
   * with parameters, its arguments over the listing agent's parameters, issue #27 §1); the
   * span then runs from the agent's name to the method's.
   */
  | { kind: "Path"; parts: string[]; span: Span; args?: Expr[]; when?: Expr }
  | { kind: "List"; items: ConfigValue[]; span: Span }
  | { kind: "Obj"; entries: Entry[]; span: Span };

/** A piece of a config string: literal text (escapes decoded) or a `{…}` segment. */
export type TemplatePart =
  | string
  /** `source`: the text between the braces, as written; `closed: false`: a `{` no `}` closed. */
  | { kind: "Hole"; source: string; span: Span; closed: boolean };

export interface Entry {
  kind: "Entry";
  key: string;
  keySpan: Span;
  value: ConfigValue;
  span: Span;
}

/** `needs db: Database` inside a tool body. */
export interface NeedsEntry {
  kind: "Needs";
  name: string;
  type: TypeRef;
  span: Span;
  nameSpan: Span;
}

// ---------------------------------------------------------------- declarations

export interface SchemaDecl {
  kind: "Schema";
  name: string;
  fields: Field[];
  span: Span;
  nameSpan: Span;
}

/** `schema Document = Invoice | Receipt tagged by kind` */
export interface UnionDecl {
  kind: "Union";
  name: string;
  members: { name: string; span: Span }[];
  tag: string;
  tagSpan: Span;
  span: Span;
  nameSpan: Span;
}

export interface ToolDecl {
  kind: "Tool";
  name: string;
  params: Field[];
  returns: TypeRef;
  options: Entry[];
  needs: NeedsEntry[];
  span: Span;
  nameSpan: Span;
}

export interface ModelDecl {
  kind: "Model";
  name: string;
  entries: Entry[];
  span: Span;
  nameSpan: Span;
}

export interface FnDecl {
  kind: "Fn";
  name: string;
  params: Field[];
  /** Omitted `-> T`: the return value is not validated. */
  returns?: TypeRef;
  body: Stmt[];
  span: Span;
  nameSpan: Span;
  /** The `///` lines directly above the `fn`, their text joined by newlines (issue #27: an agent tool's description, hover, `luma mcp`, typegen). */
  doc?: string;
}

export interface AgentDecl {
  kind: "Agent";
  name: string;
  /** `agent Name(p: T, …)`: the agent's context, supplied at each call `Name(args).m(…)`; absent when written without parentheses. */
  params?: Field[];
  entries: Entry[];
  methods: FnDecl[];
  span: Span;
  nameSpan: Span;
}

export interface DatasourceDecl {
  kind: "Datasource";
  name: string;
  entries: Entry[];
  span: Span;
  nameSpan: Span;
}

/** `query name(params) -> T[] { source: X  sql: "..." }` and the same shape for `command`. */
export interface QueryDecl {
  kind: "Query" | "Command";
  name: string;
  params: Field[];
  returns: TypeRef;
  entries: Entry[];
  span: Span;
  nameSpan: Span;
}

export type Decl =
  | SchemaDecl
  | UnionDecl
  | ToolDecl
  | ModelDecl
  | AgentDecl
  | FnDecl
  | DatasourceDecl
  | QueryDecl;

// ---------------------------------------------------------------- statements

export type Stmt =
  | { kind: "Assign"; name: string; nameSpan: Span; type?: TypeRef; value: Expr; span: Span }
  /** `else if` is an If as the only statement of `else`. */
  | { kind: "If"; cond: Expr; then: Stmt[]; else?: Stmt[]; span: Span }
  | { kind: "For"; name: string; nameSpan: Span; iterable: Expr; body: Stmt[]; span: Span }
  | { kind: "While"; cond: Expr; body: Stmt[]; span: Span }
  /** `break` / `continue`: leave, or go to the next turn of, the innermost loop. */
  | { kind: "Break" | "Continue"; span: Span }
  /**
   * `order.status = v`, `xs[0] = v`: a field or item of a variable (the target's root is a Name).
   * `checkAs`, written by the checker: the declared type of the field or item (a schema's field,
   * an item of a schema's array) when the value's static type does not prove it fits; the run
   * validates the value against it before writing.
   */
  | { kind: "AssignInto"; target: AssignTarget; value: Expr; span: Span; checkAs?: IntoCheck }
  | { kind: "Return"; value?: Expr; span: Span }
  | { kind: "Try"; body: Stmt[]; errName: string; errSpan: Span; handler: Stmt[]; span: Span }
  | { kind: "ExprStmt"; expr: Expr; span: Span }
  /** `assert cond` / `assert cond, message`: fails the test (or the run) when cond is false. */
  | { kind: "Assert"; cond: Expr; message?: Expr; span: Span }
  /** `score "route" expr` (`luma eval`, docs/eval.md): records a bool or a number in [0, 1] for the eval's case. */
  | { kind: "Score"; name: string; nameSpan: Span; value: Expr; span: Span }
  /**
   * `parallel { a = f(x)  b = g(x) }` (issue #27 §4): each statement of `body` is a branch,
   * run concurrently; what the branches assign is visible after the block.
   */
  | { kind: "Parallel"; body: Stmt[]; span: Span };

/** What `AssignInto` writes: a chain of fields and items that starts at a variable. */
export type AssignTarget = Extract<Expr, { kind: "Member" | "Index" }>;

/** The declared type a field or item write is validated against at run time (plain data: cached as JSON). */
export interface IntoCheck {
  type: TypeRef;
  /** The field is optional (no `@default`): `null` fits it. */
  orNull: boolean;
  /** A schema field with value rules (`@range`, `@pattern`…): validated with them, as a field of its schema. */
  field?: Field;
  /**
   * `type` is the written object's own type, not the field's: the field is not known before
   * the run (a key computed at run time, `o[k] = v`, or a tagged union not narrowed to one
   * member), so the object is validated as it would be after the write, before writing.
   */
  whole?: true;
}

// ---------------------------------------------------------------- expressions

export type BinaryOp = "+" | "-" | "*" | "/" | "%" | "==" | "!=" | "<" | "<=" | ">" | ">=" | "and" | "or";

/** A piece of an interpolated string: literal text (escapes already decoded) or `{expr}`. */
export type StrPart = string | Expr;

export type Expr =
  | { kind: "Num"; value: number; span: Span }
  | { kind: "Str"; parts: StrPart[]; span: Span }
  | { kind: "Bool"; value: boolean; span: Span }
  | { kind: "Null"; span: Span }
  | { kind: "Array"; items: Expr[]; span: Span }
  | { kind: "Object"; entries: { key: string; keySpan: Span; value: Expr }[]; span: Span }
  | { kind: "Name"; name: string; span: Span }
  | { kind: "Member"; object: Expr; property: string; span: Span }
  | { kind: "Index"; object: Expr; index: Expr; span: Span }
  /** `f(x)`, `print(x)`, `Flow.run(x)` (callee a Member on an agent name). */
  | { kind: "Call"; callee: Expr; args: Expr[]; span: Span }
  /** `(x) => body`: only as the argument of a builtin that takes one (`map(xs, (x) => x.id)`). */
  | { kind: "Lambda"; param: string; paramSpan: Span; body: Expr; span: Span }
  | { kind: "Binary"; op: BinaryOp; left: Expr; right: Expr; span: Span }
  | { kind: "Unary"; op: "-" | "not"; operand: Expr; span: Span }
  | { kind: "ToolCall"; tool: string; toolSpan: Span; arg: Expr; span: Span }
  /** `stream ask …` (issue #26 §2): the answer's text goes to stdout as it arrives. `… in t` (§1): the thread it continues. */
  | { kind: "Ask"; prompt: Expr; target: TypeRef; usingTool?: { name: string; span: Span }; stream?: true; thread?: Expr; span: Span }
  | { kind: "DbCall"; op: "query" | "command"; name: string; nameSpan: Span; arg: Expr; span: Span }
  /**
   * `parallel for d in docs limit 8 { … }` (issue #27 §4): the body runs for each item
   * concurrently, at most `limit` at once; the value is the array of each body's value.
   * `loop` is the `for d in docs { … }` it runs (span from `for` to the block's end), so
   * every walker sees its variable and body as a `for`'s; it is the whole value of an
   * assignment, a `return` or an expression statement (the checker holds that), and those
   * statements list `[loop]` among their nested blocks (`language/ast-children.ts`).
   */
  | { kind: "ParallelFor"; loop: Extract<Stmt, { kind: "For" }>; limit?: Expr; span: Span };

// ---------------------------------------------------------------- tests (`luma test`)

/** `replay "cassettes/x.jsonl"`: a test's (or, at the top level, a file's) recorded model answers. */
export interface ReplaySetup {
  kind: "Replay";
  path: string;
  span: Span;
}

/** `mock Model [turn, …]`: the model's scripted answers, one object per request (runtime/testing/mock-turns.ts). */
export interface MockSetup {
  kind: "Mock";
  model: string;
  modelSpan: Span;
  turns: Expr;
  span: Span;
}

/** `mock tool name [{ output: … }, { error: { code, message } }]`: a tool's calls answered in order (runtime/testing/tool-stubs.ts). */
export interface ToolStubSetup {
  kind: "ToolStub";
  tool: string;
  toolSpan: Span;
  answers: Expr;
  span: Span;
}

/** `test "name" { … }`: run by `luma test` only, against the file's declarations. */
export interface TestDecl {
  kind: "Test";
  name: string;
  body: Stmt[];
  replay?: ReplaySetup;
  mocks: MockSetup[];
  span: Span;
  nameSpan: Span;
  /** Its `mock tool` lines, when it has any. */
  stubs?: ToolStubSetup[];
}

// ---------------------------------------------------------------- evals (`luma eval`)

/**
 * `eval "triage routes" over "evals/triage.jsonl" { … }`: run by `luma eval` only, its body
 * once per line of the dataset (a path relative to the file), with the line bound to `case`.
 */
export interface EvalDecl {
  kind: "Eval";
  name: string;
  nameSpan: Span;
  dataset: string;
  datasetSpan: Span;
  body: Stmt[];
  span: Span;
}

// ---------------------------------------------------------------- imports

/** One name of an import list: `Order`, or `Refund as RefundResult`. */
export interface ImportName {
  /** The name the imported file declares. */
  name: string;
  nameSpan: Span;
  /** `as X`: the name the importing file uses instead (it renames there only). */
  alias?: string;
  aliasSpan?: Span;
}

/** `import { Order, Refund as RefundResult } from "./orders.luma"` (top level; docs/language/imports.md). */
export interface ImportDecl {
  kind: "Import";
  names: ImportName[];
  /** As written: relative to the importing file, ending in `.luma` (the loader checks both). */
  path: string;
  pathSpan: Span;
  span: Span;
}

// ---------------------------------------------------------------- program

export interface Program {
  kind: "Program";
  file: string;
  decls: Decl[];
  /** Top-level statements, in source order. */
  body: Stmt[];
  /** `test` blocks; absent when the file has none. `luma FILE` never runs them. */
  tests?: TestDecl[];
  /** `eval` blocks; absent when the file has none. Only `luma eval` runs them. */
  evals?: EvalDecl[];
  /** A top-level `replay "…"`: the cassette of every test of the file that names none. */
  replay?: ReplaySetup;
  /** The file's `import` lines, in source order; absent when it has none. */
  imports?: ImportDecl[];
  /**
   * Set by the loader on a program linked from several files (`load/link-imports.ts`): every
   * file of it (the main one first) with the names each sees. `decls` then holds every
   * file's declarations, each span naming its file.
   */
  linked?: LinkedFile[];
  span: Span;
}

/** One file of a linked program: its path (as spans name it), imports, and own declarations' names. */
export interface LinkedFile {
  file: string;
  imports: ImportDecl[];
  declared: string[];
}

export type ExprKind = Expr["kind"];
export type StmtKind = Stmt["kind"];
