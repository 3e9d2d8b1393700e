/**
 * §3–4 a literal written straight into a tool/query/command input that breaks one of its
 * parameter's value rules — `@range`, `@min`, `@max` on a number, `@length` on a string,
 * `@items` on an array — can only fail (TOOL_INPUT_INVALID): on an input every rule is
 * hard, `@severity("soft")` included (spec §3). Nested object literals are followed into
 * schema-typed parameters. Values that are not literals are the runtime's to judge.
 */
import type { Annotation, Expr, Field } from "../../syntax/ast";
import type { CheckContext } from "../context";
import { typeMessages } from "../types/type-messages";
import { typesOf } from "../types/typed-program";
import { callInput } from "./types-tool-input";

type Bounds = { min?: number; max?: number };

/** The bounds an annotation sets on the measured size of a value of this literal kind. */
const RULES: Record<string, { applies: Expr["kind"]; bounds: (args: number[]) => Bounds }> = {
  range: { applies: "Num", bounds: ([min, max]) => ({ min, max }) },
  min: { applies: "Num", bounds: ([min]) => ({ min }) },
  max: { applies: "Num", bounds: ([max]) => ({ max }) },
  length: { applies: "Str", bounds: ([min, max]) => ({ min, max }) },
  items: { applies: "Array", bounds: ([min, max]) => ({ min, max }) },
};

/** A literal's kind and measure: a number's value, a plain string's length, an array's item count. */
function measure(e: Expr): { kind: Expr["kind"]; size: number; text: string } | undefined {
  if (e.kind === "Num") return { kind: "Num", size: e.value, text: String(e.value) };
  if (e.kind === "Unary" && e.op === "-" && e.operand.kind === "Num") return { kind: "Num", size: -e.operand.value, text: String(-e.operand.value) };
  if (e.kind === "Str" && e.parts.every((p) => typeof p === "string")) {
    const text = e.parts.join("");
    return { kind: "Str", size: text.length, text: `a string of length ${text.length}` };
  }
  if (e.kind === "Array") return { kind: "Array", size: e.items.length, text: `an array of ${e.items.length} item${e.items.length === 1 ? "" : "s"}` };
  return undefined;
}

const ruleText = (a: Annotation) => `@${a.name}(${a.args.map((x) => JSON.stringify(x.value)).join(", ")})`;

export function typesLiteralRules(ctx: CheckContext): void {
  for (const e of typesOf(ctx).found.inputs) {
    const input = callInput(ctx, e);
    if (input?.arg.kind === "Object") checkObject(ctx, input.arg, input.params, input.owner, "");
  }
}

function checkObject(ctx: CheckContext, obj: Extract<Expr, { kind: "Object" }>, fields: readonly Field[], owner: string, prefix: string): void {
  for (const entry of obj.entries) {
    const field = fields.find((f) => f.name === entry.key);
    if (field) checkValue(ctx, entry.value, field, owner, `${prefix}${field.name}`);
  }
}

function checkValue(ctx: CheckContext, value: Expr, field: Field, owner: string, path: string): void {
  const lit = measure(value);
  if (lit) for (const a of field.annotations) checkRule(ctx, a, lit, value, owner, path);
  // Into a schema-typed parameter (or an array of them), where a literal object is written.
  let type = field.type;
  let items: readonly Expr[] = [value];
  if (type.kind === "ArrayType" && value.kind === "Array") {
    type = type.element;
    items = value.items;
  }
  const schema = type.kind === "NamedType" ? ctx.symbols.schemas.get(type.name) : undefined;
  if (!schema) return;
  items.forEach((item, i) => {
    if (item.kind === "Object") checkObject(ctx, item, schema.fields, owner, items.length === 1 && item === value ? `${path}.` : `${path}[${i}].`);
  });
}

function checkRule(ctx: CheckContext, a: Annotation, lit: NonNullable<ReturnType<typeof measure>>, value: Expr, owner: string, path: string): void {
  const rule = Object.hasOwn(RULES, a.name) ? RULES[a.name] : undefined;
  if (!rule || rule.applies !== lit.kind) return;
  const args = a.args.map((x) => x.value);
  if (!args.every((x) => typeof x === "number")) return; // malformed annotations are reported elsewhere
  const { min, max } = rule.bounds(args as number[]);
  if ((min === undefined || lit.size >= min) && (max === undefined || lit.size <= max)) return;
  const m = typeMessages.literalRule;
  ctx.report(m.text(`Parameter '${path}' of ${owner}`, lit.text, ruleText(a)), value.span, { code: m.code });
}
