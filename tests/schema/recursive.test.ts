/**
 * Recursive schemas (spec §2/§3): a comment tree, a category with an optional parent, a
 * tagged union whose member holds the union. Written once in `$defs` and referred to by
 * `$ref`; validated, defaulted and tagged to any depth the value has (bounded, never a
 * stack overflow); issues name the full path.
 */
import { afterAll, describe, expect, spyOn, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { parse } from "../../src/syntax/parse";
import { createSchemaTable } from "../../src/schema/schema-table";
import { toJsonSchema } from "../../src/schema/json-schema";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runLuma } from "../support/luma-binary";

const SOURCE = `
schema Comment {
  author: string
  text: string @length(1, 500)
  replies: Comment[] @desc("Answers to this comment")
}

schema Category {
  name: string
  visible?: bool @default(true)
  parent?: Category
}

schema Num { value: float }
schema Add { left: Expr  right: Expr }
schema Expr = Num | Add tagged by op

schema Leaf { value: int }
schema Plain { leaf: Leaf }

tool post(thread: Comment, note?: string) -> Comment {
  side_effects: "none"
}
`;

const table = createSchemaTable(parse(SOURCE, "recursive.luma").program!);
const json = (name: string) => toJsonSchema(table.named(name)!);

const COMMENT_BODY = {
  type: "object",
  additionalProperties: false,
  required: ["author", "text", "replies"],
  properties: {
    author: { type: "string" },
    text: { type: "string", minLength: 1, maxLength: 500 },
    replies: { type: "array", description: "Answers to this comment", items: { $ref: "#/$defs/Comment" } },
  },
};

/** `{author, text, replies}` nested `depth` levels down the first reply. */
function thread(depth: number, leaf: Record<string, unknown> = { author: "z", text: "end", replies: [] }): unknown {
  let node: unknown = leaf;
  for (let i = 0; i < depth; i++) node = { author: `a${i}`, text: "t", replies: [node] };
  return node;
}

describe("§2 recursive schemas in JSON Schema: $defs and $ref", () => {
  test("a recursive schema is its structure at the root, the same structure in $defs, and $ref at every use", () => {
    expect(json("Comment")).toEqual({ ...COMMENT_BODY, $defs: { Comment: COMMENT_BODY } });
  });

  test("a tool input that uses a recursive schema carries its $defs at the document root", () => {
    expect(toJsonSchema(table.toolInput("post"))).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["thread"],
      properties: { thread: { $ref: "#/$defs/Comment" }, note: { type: "string" } },
      $defs: { Comment: COMMENT_BODY },
    });
  });

  test("a tagged union with a recursive member: anyOf at the root, members refer back by $ref", () => {
    const expr = json("Expr") as { anyOf: unknown[]; $defs: Record<string, unknown> };
    expect(Object.keys(expr.$defs)).toEqual(["Expr"]);
    expect(expr.anyOf[1]).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["op", "left", "right"],
      properties: { op: { type: "string", const: "Add" }, left: { $ref: "#/$defs/Expr" }, right: { $ref: "#/$defs/Expr" } },
    });
  });

  test("a schema that does not recurse is still inlined, with no $defs", () => {
    expect(json("Plain")).toEqual({
      type: "object",
      additionalProperties: false,
      required: ["leaf"],
      properties: { leaf: { type: "object", additionalProperties: false, required: ["value"], properties: { value: { type: "integer" } } } },
    });
  });
});

describe("§3 validating recursive values", () => {
  test("a deep tree is valid; the value comes back unchanged", () => {
    const value = thread(300);
    const r = table.validate({ schema: "Comment" }, value, "output", "Comment");
    expect(r.ok).toBe(true);
    expect(r.value).toBe(value);
  });

  test("issues deep in the tree name their full path", () => {
    const bad = { author: "a", text: "t", replies: [{ author: "b", text: "", replies: [{ author: 3, text: "x", replies: [], mood: "?" }] }] };
    const r = table.validate({ schema: "Comment" }, bad, "output", "Comment");
    expect(r.hard.map((i) => i.message)).toEqual([
      "Comment.replies[0].text must be at least 1 character long (@length).",
      "Comment.replies[0].replies[0].author must be a string, got integer (type).",
      "Comment.replies[0].replies[0].mood is not a known field (unknown field).",
    ]);
  });

  test("defaults are filled at every level of an optional recursive field; the caller's value is not mutated", () => {
    const input = { name: "leaf", parent: { name: "mid", visible: false, parent: { name: "root" } } };
    const before = structuredClone(input);
    const r = table.validate({ schema: "Category" }, input, "input", "Category");
    expect(r.ok).toBe(true);
    expect(r.value).toEqual({ name: "leaf", visible: true, parent: { name: "mid", visible: false, parent: { name: "root", visible: true } } });
    expect(input).toEqual(before);
  });

  test("an untagged input is tagged at every level of a recursive union; an output must carry its tags", () => {
    const input = { left: { value: 1 }, right: { left: { value: 2 }, right: { value: 3 } } };
    const r = table.validate({ schema: "Expr" }, input, "input", "e");
    expect(r.value).toEqual({ op: "Add", left: { op: "Num", value: 1 }, right: { op: "Add", left: { op: "Num", value: 2 }, right: { op: "Num", value: 3 } } });
    const out = table.validate({ schema: "Expr" }, { op: "Add", left: { op: "Num", value: 1 }, right: { op: "Add", left: { value: 2 }, right: { op: "Num", value: 3 } } }, "output", "e");
    expect(out.hard.map((i) => i.message)).toEqual(["e.right.left.op must identify a tagged union member."]);
  });

  test("inferring the members of a 100-deep untagged tree tries each (value, union) once, not 2^100 times", () => {
    const t2 = createSchemaTable(parse(`schema A { kids: U[]  a: int }\nschema B { kids: U[]  b: int }\nschema U = A | B tagged by k`, "u.luma").program!);
    let v: Record<string, unknown> = { kids: [], a: 0 };
    for (let i = 1; i <= 100; i++) v = i % 2 ? { kids: [v], b: i } : { kids: [v], a: i };
    const r = t2.validate({ schema: "U" }, v, "input", "u");
    expect(r.ok).toBe(true);
    const tags: string[] = [];
    for (let n = r.value as { k: string; kids: unknown[] } | undefined; n; n = n.kids[0] as typeof n) tags.push(n.k);
    expect(tags.length).toBe(101);
    expect(tags.slice(0, 3)).toEqual(["A", "B", "A"]);
  });

  test("a value nested deeper than 1000 levels is an issue, never a stack overflow", () => {
    const r = table.validate({ schema: "Comment" }, thread(100_000), "input", "post.input.thread");
    expect(r.ok).toBe(false);
    expect(r.hard.map((i) => i.message)).toEqual(["post.input.thread is nested deeper than 1000 levels (depth)."]);
  });

  test("a shared subtree counts at every place: a 2^60-node DAG is a size issue, not an endless walk", () => {
    let dag: unknown = { author: "z", text: "end", replies: [] };
    for (let i = 0; i < 60; i++) dag = { author: "a", text: "t", replies: [dag, dag] };
    const r = table.validate({ schema: "Comment" }, dag, "output", "Comment");
    expect(r.hard.map((i) => i.message)).toEqual(["Comment holds more than 1000000 objects and arrays (size)."]);
  });

  test("a cyclic object is reported as too deep, not followed forever", () => {
    const loop: Record<string, unknown> = { author: "a", text: "t" };
    loop.replies = [loop];
    expect(table.validate({ schema: "Comment" }, loop, "output", "Comment").hard[0].rule).toBe("depth");
  });
});

describe("§2 'Schemas are compiled once': a recursive schema is one compiled check", () => {
  test("compiled on first use, then reused for every value, whatever its depth", () => {
    const fresh = createSchemaTable(parse(SOURCE, "recursive.luma").program!);
    const spy = spyOn(TypeCompiler, "Compile");
    afterAll(() => spy.mockRestore());
    for (const depth of [0, 5, 50]) expect(fresh.validate({ schema: "Comment" }, thread(depth), "output", "Comment").ok).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });
});

describe("§2 recursive schemas through `luma check` and `luma FILE`", () => {
  const write = (source: string) => {
    const file = join(mkdtempSync(join(tmpdir(), "luma-recursive-")), "main.luma");
    writeFileSync(file, source);
    return file;
  };

  test("a schema that refers to itself through an array or an optional field checks and runs", () => {
    const file = write(`schema Node {\n  value: int\n  children: Node[]\n  parent?: Node\n}\nt: Node = { value: 1, children: [{ value: 2, children: [] }] }\nprint(t.children[0].value)\n`);
    expect(runLuma(["check", file])).toMatchObject({ exitCode: 0 });
    expect(runLuma([file])).toEqual({ exitCode: 0, stdout: "2\n", stderr: "" });
  });

  test("'a cycle of required fields has no finite value': a check error at the schema, exit 2", () => {
    const file = write(`schema A {\n  b: B\n}\nschema B {\n  a: A\n}\n`);
    const r = runLuma(["check", file]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      "main.luma:1:8: error[E0208]: Schema 'A' is recursive with no finite value: A -> B -> A. Make a field on the cycle optional (name?: T, without @default) or a list (T[]).",
    );
  });

  test("a typed value deeper down the tree is validated with its full path", () => {
    const file = write(`schema Node {\n  value: int\n  children: Node[]\n}\nraw: any = { value: 1, children: [{ value: 2, children: [{ value: "x", children: [] }] }] }\nt: Node = raw\n`);
    const r = runLuma([file]);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/^Error: \[VALUE_INVALID\] t\.children\[0\]\.children\[0\]\.value must be an integer, got string \(type\) at .*main\.luma:6:1\n  --> .*main\.luma:6:1\n/);
  });
});
