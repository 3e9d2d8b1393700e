/**
 * Validation of one value against one shape (spec §3): prepare (defaults, union tags) →
 * compiled TypeBox check → only on failure, the same without its `undefined` fields (absent,
 * as in JSON: absent-fields.ts), then the issue walker.
 *
 * Each shape's TypeCompiler check is compiled on first use and cached, so a hot call does
 * no compiling: for a valid value it costs the prepare walk (skipped entirely where no
 * default or union is involved) and one compiled check. A recursive schema's value is
 * first measured (walk-context.ts `tooBigToWalk`): deeper than MAX_JSON_DEPTH, or more
 * than MAX_JSON_VALUES objects and arrays written out, it is an issue — never a stack
 * overflow or an exponential walk of a shared (DAG) value.
 */
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import type { Shape } from "./shape";
import type { Direction, ValidationIssue, ValidationResult } from "./schema-table-types";
import { withoutUndefinedFields } from "./absent-fields";
import { collectIssues } from "./collect-issues";
import { depthIssue, schemaMismatchIssue, sizeIssue } from "./issue-messages";
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from "./json-data";
import { prepareValue } from "./prepare-value";
import { referencesOf, toTypeBoxDocument } from "./to-typebox";
import { ensureTypeBoxRegistry } from "./typebox-registry";
import { tooBigToWalk, type WalkContext } from "./walk-context";

/** Shared by every valid result (readonly, never mutated): no two fresh arrays per validation. */
const NO_ISSUES: readonly ValidationIssue[] = Object.freeze([]);

export class ShapeValidator {
  private readonly checks = new WeakMap<Shape, TypeCheck<TSchema>>();
  private readonly contexts: Record<Direction, WalkContext> = {
    input: { direction: "input", memberAccepts: (m, v) => this.checkOf(m).Check(v) },
    output: { direction: "output", memberAccepts: (m, v) => this.checkOf(m).Check(v) },
  };

  /** The compiled check of a shape (compiled once). */
  checkOf(shape: Shape): TypeCheck<TSchema> {
    let check = this.checks.get(shape);
    if (!check) {
      ensureTypeBoxRegistry();
      const doc = toTypeBoxDocument(shape);
      check = TypeCompiler.Compile(doc, referencesOf(doc));
      this.checks.set(shape, check);
    }
    return check;
  }

  validate(shape: Shape, value: unknown, direction: Direction, root: string): ValidationResult {
    // Only a recursive schema lets the walks follow a value further than the schema; bound it first.
    const recursive = toTypeBoxDocument(shape).$defs !== undefined;
    const tooBig = recursive ? tooBigToWalk(value, MAX_JSON_DEPTH, MAX_JSON_VALUES) : undefined;
    if (tooBig) {
      const issue = tooBig === "depth" ? depthIssue(root, MAX_JSON_DEPTH) : sizeIssue(root, MAX_JSON_VALUES);
      return { ok: false, value, hard: [issue], soft: NO_ISSUES };
    }
    const ctx = recursive ? { ...this.contexts[direction], memo: new WeakMap() } : this.contexts[direction];
    let prepared = prepareValue(shape, value, ctx);
    const check = this.checkOf(shape);
    if (check.Check(prepared)) return { ok: true, value: prepared, hard: NO_ISSUES, soft: NO_ISSUES };
    // An `undefined` field is absent (docs/pipeline.md), but TypeBox sees its key: judge the
    // value without such fields — only now, so a value that passes costs nothing more.
    const withoutUndefined = withoutUndefinedFields(value);
    if (withoutUndefined !== value) {
      prepared = prepareValue(shape, withoutUndefined, recursive ? { ...ctx, memo: new WeakMap() } : ctx);
      if (check.Check(prepared)) return { ok: true, value: prepared, hard: NO_ISSUES, soft: NO_ISSUES };
    }

    const issues: ValidationIssue[] = [];
    collectIssues(shape, prepared, root, ctx, issues);
    if (issues.length === 0) {
      // The walker mirrors TypeBox; if they ever disagree, fail loudly rather than pass.
      const first = check.Errors(prepared).First();
      issues.push(schemaMismatchIssue(root, first ? `${first.path || "/"} ${first.message}` : "unknown reason"));
    }
    const hard = issues.filter((i) => i.severity === "hard");
    const soft = issues.filter((i) => i.severity === "soft");
    return { ok: hard.length === 0, value: prepared, hard, soft };
  }
}
