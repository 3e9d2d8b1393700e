import { describe, expect, test } from "bun:test";
import type { Span } from "../../src/syntax/ast";
import { FILE, parseOk, textAt } from "./parse-helpers";

const SOURCE = `#!/usr/bin/env luma
// Spans point into the original text, shebang line included.
schema Answer {
  summary: string @desc("One {sentence}") @length(1, 280)
}
schema Doc = Invoice | Receipt tagged by kind
tool calc(a: float @range(0, 10), b?: int) -> Answer {
  needs db: Database
  idempotency_key: input.request_id
}
agent Flow {
  model: GPT54Mini
  fn run(text: string) -> Answer {
    stats = tool text_stats({ text: text })
    ask "Stats: {stats.words * 2}, {"nested {text}"}" -> Answer using tool calc
  }
}
total: int = (1 + 2) * -x[0]
`;

/** Every span in the tree, with the path that leads to it. */
function allSpans(node: unknown, path = "program", out: [string, Span][] = []): [string, Span][] {
  if (Array.isArray(node)) node.forEach((item, i) => allSpans(item, `${path}[${i}]`, out));
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if ((key === "span" || key.endsWith("Span")) && value && typeof value === "object") out.push([`${path}.${key}`, value as Span]);
      else allSpans(value, `${path}.${key}`, out);
    }
  }
  return out;
}

describe("§1 Spans: every node records where it came from", () => {
  const program = parseOk(SOURCE);
  const [answer, doc, calc, flow] = program.decls;

  test("every span lies inside the file and is not inverted", () => {
    const spans = allSpans(program);
    expect(spans.length).toBeGreaterThan(60);
    for (const [path, span] of spans) {
      expect({ path, file: span.file }).toEqual({ path, file: FILE });
      expect({ path, ok: span.start >= 0 && span.start <= span.end && span.end <= SOURCE.length }).toEqual({ path, ok: true });
    }
  });

  test("declarations, names, fields, annotations, entries", () => {
    if (answer.kind !== "Schema" || doc.kind !== "Union" || calc.kind !== "Tool" || flow.kind !== "Agent") throw new Error("order");
    expect(textAt(SOURCE, answer.span)).toStartWith("schema Answer {");
    expect(textAt(SOURCE, answer.span)).toEndWith("}");
    expect(textAt(SOURCE, answer.nameSpan)).toBe("Answer");
    const [field] = answer.fields;
    expect(textAt(SOURCE, field.span)).toBe('summary: string @desc("One {sentence}") @length(1, 280)');
    expect(textAt(SOURCE, field.nameSpan)).toBe("summary");
    expect(textAt(SOURCE, field.type.span)).toBe("string");
    expect(textAt(SOURCE, field.annotations[1].span)).toBe("@length(1, 280)");
    expect(textAt(SOURCE, field.annotations[1].args[1].span)).toBe("280");
    expect(textAt(SOURCE, doc.members[1].span)).toBe("Receipt");
    expect(textAt(SOURCE, doc.tagSpan)).toBe("kind");
    expect(textAt(SOURCE, calc.params[1].span)).toBe("b?: int");
    expect(textAt(SOURCE, calc.needs[0].span)).toBe("needs db: Database");
    expect(textAt(SOURCE, calc.needs[0].nameSpan)).toBe("db");
    expect(textAt(SOURCE, calc.options[0].keySpan)).toBe("idempotency_key");
    expect(textAt(SOURCE, calc.options[0].value.span)).toBe("input.request_id");
    expect(textAt(SOURCE, flow.entries[0].span)).toBe("model: GPT54Mini");
    expect(textAt(SOURCE, flow.methods[0].nameSpan)).toBe("run");
  });

  test("statements and expressions, including inside string interpolation", () => {
    if (flow.kind !== "Agent") throw new Error("order");
    const [assign, askStmt] = flow.methods[0].body;
    expect(textAt(SOURCE, assign.span)).toBe("stats = tool text_stats({ text: text })");
    if (assign.kind !== "Assign" || assign.value.kind !== "ToolCall") throw new Error("shape");
    expect(textAt(SOURCE, assign.value.toolSpan)).toBe("text_stats");
    if (askStmt.kind !== "ExprStmt" || askStmt.expr.kind !== "Ask") throw new Error("shape");
    const ask = askStmt.expr;
    expect(textAt(SOURCE, ask.span)).toBe('ask "Stats: {stats.words * 2}, {"nested {text}"}" -> Answer using tool calc');
    expect(textAt(SOURCE, ask.usingTool?.span)).toBe("calc");
    expect(textAt(SOURCE, ask.target.span)).toBe("Answer");
    if (ask.prompt.kind !== "Str") throw new Error("shape");
    const [, product, , nested] = ask.prompt.parts;
    if (typeof product === "string" || typeof nested === "string") throw new Error("shape");
    expect(textAt(SOURCE, product.span)).toBe("stats.words * 2");
    if (product.kind !== "Binary") throw new Error("shape");
    expect(textAt(SOURCE, product.left.span)).toBe("stats.words");
    expect(textAt(SOURCE, nested.span)).toBe('"nested {text}"');
    if (nested.kind !== "Str" || typeof nested.parts[1] === "string") throw new Error("shape");
    expect(textAt(SOURCE, nested.parts[1].span)).toBe("text");
  });

  test("binary spans include parentheses; unary and index spans", () => {
    const [total] = program.body;
    if (total.kind !== "Assign" || !total.type) throw new Error("shape");
    expect(textAt(SOURCE, total.span)).toBe("total: int = (1 + 2) * -x[0]");
    expect(textAt(SOURCE, total.type.span)).toBe("int");
    const product = total.value;
    expect(textAt(SOURCE, product.span)).toBe("(1 + 2) * -x[0]");
    if (product.kind !== "Binary") throw new Error("shape");
    expect(textAt(SOURCE, product.left.span)).toBe("1 + 2");
    expect(textAt(SOURCE, product.right.span)).toBe("-x[0]");
    if (product.right.kind !== "Unary") throw new Error("shape");
    expect(textAt(SOURCE, product.right.operand.span)).toBe("x[0]");
  });

  test("array types span their brackets", () => {
    const d = parseOk("schema S { xs: int[][] }").decls[0];
    if (d.kind !== "Schema") throw new Error(d.kind);
    const type = d.fields[0].type;
    expect(textAt("schema S { xs: int[][] }", type.span)).toBe("int[][]");
  });

  test("the program spans the whole file", () => {
    expect(program.span).toEqual({ file: FILE, start: 0, end: SOURCE.length });
    expect(program.file).toBe(FILE);
  });
});
