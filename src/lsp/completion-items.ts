/**
 * Completion, decided by where the cursor is (one table per context, read from the same
 * tables the checker uses, so the list never offers what the checker would reject):
 *
 * - after `.` on a value: the fields of its type (through the typer), or an agent's methods;
 * - after `@`: the annotations of `src/schema/annotations.ts`;
 * - at the start of an entry directly inside a `tool` / `agent` / `model` / `datasource` /
 *   `query` / `command` block: that block's keys, with their doc lines (`src/language/keys/`);
 * - anywhere else: keywords, builtins, declared names, the variables of the code unit at
 *   the cursor, and (at the top level) snippets for `tool`, `agent` and `schema`.
 *
 * While a member is being typed (`user.`) the text does not parse; the value before the
 * dot is typed by analysing the text with the dot and the partial name blanked out.
 * At most MAX_ITEMS are returned.
 */
import { BUILTINS } from "../language/builtins";
import { KEY_BLOCKS, type KeyTable } from "../language/key-blocks";
import { keyDocText } from "../language/keys/key-spec";
import { membersOf, typeText } from "../check/types/type-model";
import { ANNOTATIONS } from "../schema/index";
import type { Expr, Span } from "../syntax/ast";
import { KEYWORDS as SYNTAX_KEYWORDS, PRIMITIVE_TYPES } from "../syntax/keywords";
import { analyze, type Analysis } from "./analyze-document";
import type { UnitKey } from "./document-index";

export const MAX_ITEMS = 1000;

/** LSP CompletionItemKind values. */
const KIND = { method: 2, function: 3, field: 5, variable: 6, class: 7, interface: 8, module: 9, property: 10, keyword: 14, snippet: 15, struct: 22 } as const;

export interface CompletionItem {
  label: string;
  kind: number;
  detail?: string;
  documentation?: string;
  insertText?: string;
  /** 2: a snippet with `${1:…}` placeholders. */
  insertTextFormat?: 1 | 2;
}

/** The language's own type names (issue #26 §1), each with what it is. */
export const BUILTIN_TYPE_DOCS: ReadonlyMap<string, string> = new Map([
  ["Thread", "A conversation: thread() in memory, thread(id) stored; `ask … in t` continues it. Read t.messages, len(t)."],
  ["Message", "One message of a thread: { role, text, tool_calls?, tool_call_id?, agent?, time }."],
]);

/**
 * What completion offers as words: the grammar's keywords, the contextual ones — `parallel`
 * (issue #27), `stream` before `ask` (issue #26), `when` in an agent's tools (issue #25) —
 * and the primitive type names.
 */
export const KEYWORDS: readonly string[] = [...SYNTAX_KEYWORDS, "parallel", "stream", "when", ...PRIMITIVE_TYPES];

const SNIPPETS: CompletionItem[] = [
  { label: "schema", kind: KIND.snippet, detail: "schema declaration", insertTextFormat: 2, insertText: "schema ${1:Name} {\n  ${2:field}: ${3:string}\n}" },
  {
    label: "tool", kind: KIND.snippet, detail: "tool contract", insertTextFormat: 2,
    insertText: 'tool ${1:name}(${2:input}: ${3:string}) -> ${4:string} {\n  side_effects: "${5:none}"\n}',
  },
  {
    label: "agent", kind: KIND.snippet, detail: "agent declaration", insertTextFormat: 2,
    insertText: 'agent ${1:Name} {\n  model: ${2:Model}\n  system: "${3:You are helpful.}"\n  tools: [${4}]\n\n  fn ${5:run}(${6:input}: string) -> string {\n    return ask input -> string\n  }\n}',
  },
  {
    label: "eval", kind: KIND.snippet, detail: "eval over a dataset (luma eval, *.eval.luma)", insertTextFormat: 2,
    insertText: 'eval "${1:name}" over "${2:cases.jsonl}" {\n  out = ${3:Agent.run}(case.input)\n  score "${4:correct}" out == case.expected\n}',
  },
];

/** Inside an `eval` block (luma eval): its dataset line and the statement that records a score. */
const EVAL_ITEMS: CompletionItem[] = [
  { label: "case", kind: KIND.variable, detail: "any", documentation: "The dataset line this run of the eval is for (parsed JSON)." },
  { label: "score", kind: KIND.keyword, detail: "score \"name\" value", documentation: "Records a bool or a number in [0, 1] for the case; the report averages it over the cases." },
];

/** A block's keys by the keyword that opens it. */
const BLOCK_KEYS: Record<string, KeyTable> = Object.fromEntries(KEY_BLOCKS.flatMap((b) => b.keywords.map((k) => [k, b.table])));

const DECL_KIND: Record<string, number> = {
  Schema: KIND.struct, Union: KIND.struct, Tool: KIND.function, Fn: KIND.function, Agent: KIND.class,
  Model: KIND.module, Datasource: KIND.module, Query: KIND.function, Command: KIND.function,
};

/**
 * The keyword of the top-level block around `offset` and the bracket depth inside it,
 * strings and comments skipped. A block starts on a line that begins in column 0.
 */
function enclosingBlock(text: string, offset: number): { keyword: string; depth: number } {
  let start = offset;
  while (start > 0) {
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    if (/^[A-Za-z_]/.test(text[lineStart] ?? "")) {
      start = lineStart;
      break;
    }
    start = lineStart - 1;
  }
  if (start < 0) start = 0;
  const keyword = /^[a-z]+/.exec(text.slice(start, start + 12))?.[0] ?? "";
  let depth = 0;
  for (let i = start; i < offset; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < offset && text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "/" && text[i + 1] === "/") {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? offset : nl;
    } else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") depth--;
  }
  return { keyword, depth };
}

/** The value right before a `.` at `dot`: the outermost postfix expression ending there. */
function valueBefore(a: Analysis, dot: number): Expr | undefined {
  let best: Expr | undefined;
  for (const e of a.types.keys()) {
    if (e.span.end !== dot || e.kind === "Binary" || e.kind === "Unary") continue;
    if (!best || e.span.start < best.span.start) best = e;
  }
  return best;
}

function memberItems(a: Analysis, dot: number, prefixEnd: number): CompletionItem[] {
  const blanked = a.text.slice(0, dot) + " ".repeat(prefixEnd - dot) + a.text.slice(prefixEnd);
  const b = analyze(a.uri, a.version, blanked, a.pieces, a.tested, a.readFile);
  const value = valueBefore(b, dot);
  if (!value) return [];
  const items: CompletionItem[] = [];
  const t = b.types.get(value);
  for (const m of t ? membersOf(t) : []) {
    if (m.kind !== "object") continue;
    for (const [name, f] of m.fields) {
      if (!items.some((i) => i.label === name)) items.push({ label: name, kind: KIND.field, detail: `${typeText(f.type)}${f.optional ? " (optional)" : ""}` });
    }
  }
  if (value.kind === "Name") {
    const agent = b.program?.decls.find((d) => d.kind === "Agent" && d.name === value.name);
    if (agent?.kind === "Agent") for (const m of agent.methods) items.push({ label: m.name, kind: KIND.method, detail: `fn ${m.name}(…)` });
  }
  return items;
}

/** The code unit (fn, method, `test` or `eval` block, or top level) whose body holds `offset`. */
function unitAt(a: Analysis, offset: number): UnitKey {
  for (const d of a.program?.decls ?? []) {
    const fns = d.kind === "Fn" ? [d] : d.kind === "Agent" ? d.methods : [];
    for (const f of fns) if (f.span.start <= offset && offset <= f.span.end) return f;
    // Inside an agent but not one of its methods (its `system`, a `when`): the agent's parameters.
    if (d.kind === "Agent" && d.span.start <= offset && offset <= d.span.end) return d;
  }
  const within = (d: { span: Span }) => d.span.start <= offset && offset <= d.span.end;
  return a.program?.tests?.find(within) ?? a.program?.evals?.find(within) ?? null;
}

export function completionItems(a: Analysis, offset: number): CompletionItem[] {
  const before = a.text.slice(Math.max(0, offset - 200), offset);
  const prefix = /[A-Za-z_][A-Za-z0-9_]*$/.exec(before)?.[0] ?? "";
  const start = offset - prefix.length;
  const charBefore = a.text[start - 1];
  // The member name may go on past the cursor (`w.|summary` in a valid document, as an editor
  // asks on Ctrl-Space): the whole name is blanked, or `w summary` would not parse.
  const nameEnd = offset + (/^[A-Za-z0-9_]*/.exec(a.text.slice(offset, offset + 200))?.[0].length ?? 0);
  if (charBefore === ".") return memberItems(a, start - 1, nameEnd).slice(0, MAX_ITEMS);
  if (charBefore === "@") return ANNOTATIONS.map((x) => ({ label: x.name, kind: KIND.property, detail: `@${x.name}(${x.args.join(", ")})` }));

  const lineStart = a.text.lastIndexOf("\n", start - 1) + 1;
  const atLineStart = a.text.slice(lineStart, start).trim() === "";
  const block = enclosingBlock(a.text, start);
  const keys = BLOCK_KEYS[block.keyword];
  if (keys && block.depth === 1 && atLineStart && lineStart !== start) {
    return Object.entries(keys).map(([key, spec]) => ({
      label: key, kind: KIND.property, detail: spec.required ? "required" : undefined, documentation: keyDocText(key, spec), insertText: `${key}: `,
    }));
  }

  const items: CompletionItem[] = KEYWORDS.map((k) => ({ label: k, kind: KIND.keyword }));
  if (block.depth === 0 && atLineStart) items.push(...SNIPPETS);
  for (const [name, spec] of Object.entries(BUILTINS)) items.push({ label: name, kind: KIND.function, detail: "builtin", documentation: spec.doc });
  for (const [name, doc] of BUILTIN_TYPE_DOCS) items.push({ label: name, kind: KIND.struct, detail: "built-in type", documentation: doc });
  for (const d of a.program?.decls ?? []) items.push({ label: d.name, kind: DECL_KIND[d.kind], detail: d.kind.toLowerCase() });
  const unit = unitAt(a, offset);
  if (unit?.kind === "Eval") items.push(...EVAL_ITEMS);
  const scope = a.index?.unitNames.get(unit);
  for (const [name, def] of scope ?? []) {
    const t = def.value && a.types.get(def.value);
    items.push({ label: name, kind: KIND.variable, detail: t && !def.iterates ? typeText(t) : undefined });
  }
  return items.slice(0, MAX_ITEMS);
}
