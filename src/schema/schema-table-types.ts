/**
 * The contract between the schema compiler and its users (the pipeline, the interpreter,
 * `ask`, queries and commands). Implemented by `createSchemaTable` in `./schema-table.ts`.
 */
import type { TSchema } from "@sinclair/typebox";
import type { Field, TypeRef } from "../syntax/ast";

/** Inputs are tool parameters; outputs are tool results, `ask` results, query rows, values. */
export type Direction = "input" | "output";

export interface ValidationIssue {
  /** Full dotted path with the caller's root: `calculate.input.a`, `Answer.score`, `rows[2].name`. */
  path: string;
  /** The rule that failed, as written in Luma: "@range", "@pattern", "type", "required", "additionalProperties", "enum", "tag"… */
  rule: string;
  /** One sentence starting with the path: `calculate.input.a must be <= 1000000 (@range).` */
  message: string;
  severity: "hard" | "soft";
}

export interface ValidationResult {
  /** No hard issue (soft issues on outputs annotate; on inputs every issue is hard). */
  ok: boolean;
  /** The value with defaults filled in and, on input, tagged-union discriminators written. Never the caller's object mutated. */
  value: unknown;
  hard: readonly ValidationIssue[];
  soft: readonly ValidationIssue[];
}

/** What can be validated: a type written in source, a declared name, or a tool's generated input. */
export type ValidationTarget =
  | TypeRef
  | { schema: string }
  | { toolInput: string }
  | { queryInput: string }
  /** One fn parameter with its annotations; the path is `root.<param name>`. */
  | { param: Field };

export interface SchemaTable {
  /** The TypeBox type of a declared schema or tagged union; undefined when not declared. */
  named(name: string): TSchema | undefined;
  /** The TypeBox type of any type reference (compiled once per distinct reference). */
  typeOf(ref: TypeRef): TSchema;
  /** `__tool_<name>_input`: the JSON Schema a model gets as the tool's `parameters` (for a query or command listed in `tools`, its parameters). */
  toolInput(tool: string): TSchema;
  /**
   * Validate `value`. `root` prefixes every path (`calculate.input`, `calculate.output`,
   * `Answer`). Compiled validators are cached per schema; no compile happens on a hot call.
   */
  validate(target: ValidationTarget, value: unknown, direction: Direction, root: string): ValidationResult;
}
