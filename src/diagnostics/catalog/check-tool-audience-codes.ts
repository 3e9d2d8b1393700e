/**
 * E0270–E0274: the checker's rules about who sees a tool and what the model is told of it
 * (issue #25 §2 `audience`, §5 `instructions`, `max_result_chars`, `metadata`;
 * docs/language/tools.md "Who sees a tool"). Kept apart from the other declaration and code
 * entries so that this family of keys reads as one record. One entry per diagnostic: its
 * code, title, the text builder the rule reports with, the explanation and the example
 * `luma explain CODE` prints.
 *
 * Keyed by the builder's name; the rules that report them live in `src/check/rules/`
 * (`tool-audience.ts`; E0270 is judged with the value's kind, `check/value-kind-checks.ts`, so
 * it holds for every constant-object key, a model's `provider_options` too).
 */
import type { WordedEntry } from "./catalog-entry";

export const CHECK_TOOL_AUDIENCE_DIAGNOSTICS = {
  metadataNotConstant: {
    code: "E0270",
    title: "a constant object names something",
    text: (key: string, owner: string, at: string, name: string) =>
      `Key '${key}' in ${owner} must be a constant object: ${at === "" ? "it" : `'${at}'`} names '${name}'.`,
    hints: {
      quote: (name: string) => `Write the value itself (a string, number, bool, null, list or object), e.g. "${name}".`,
    },
    explanation:
      "A key that holds a constant object — a tool's `metadata`, a model's `provider_options` — is handed on as written (MCP `_meta`, trace events, OpenTelemetry attributes, generated types; a provider's request body), so it is decided when the program is written: an object whose values are strings, numbers, bools, null, lists and objects. A bare name would name something of the program; quote it if a string was meant.",
    example: "schema Out { ok: bool }\ntool t(a: int) -> Out { metadata: { owner: billing } }",
  },
  modelOnlyToolCalledDirectly: {
    code: "E0271",
    title: "direct call of a tool whose audience is the model",
    text: (tool: string) => `Tool '${tool}' has audience "model": only a model may call it, not code.`,
    hints: {
      both: `Set audience: "both" on the tool to call it from code too, or ask the agent's model to call it.`,
    },
    explanation:
      'A tool with `audience: "model"` is offered to models only: a direct `tool x(…)` call from code is refused before the program runs. Use `audience: "both"` (the default) for a tool both may call.',
    example: 'schema Out { ok: bool }\ntool t(a: int) -> Out { audience: "model" }\nprint(tool t({ a: 1 }))',
  },
  codeOnlyToolForced: {
    code: "E0272",
    title: "using tool names a tool whose audience is code",
    text: (tool: string) => `Tool '${tool}' has audience "code": it is never offered to a model, so 'using tool' cannot force it.`,
    explanation:
      '`ask … using tool x` makes the model call `x`, but a tool with `audience: "code"` is never sent to a model. Call it directly (`tool x(…)`), or give it `audience: "both"`.',
    example:
      'model M { provider: "openai", name: "gpt-5.4-mini" }\nschema Out { ok: bool }\ntool t(a: int) -> Out { audience: "code" }\nagent A {\n  model: M\n  tools: [t]\n  fn run() -> Out { ask "go" -> Out using tool t }\n}',
  },
  modelOptionOnCodeTool: {
    code: "E0273",
    title: "model-facing key on a tool whose audience is code (warning)",
    text: (tool: string, key: string) => `Key '${key}' of tool '${tool}' has no effect: a tool with audience "code" is never offered to a model.`,
    explanation:
      '`instructions` and `max_result_chars` shape what a model is told and sees of a tool; a tool with `audience: "code"` never reaches a model, so they change nothing. Remove the key, or change the audience. A warning: the program still runs.',
    example: 'schema Out { ok: bool }\ntool t(a: int) -> Out {\n  audience: "code"\n  instructions: "Call t first."\n}',
  },
} as const satisfies Record<string, WordedEntry>;
