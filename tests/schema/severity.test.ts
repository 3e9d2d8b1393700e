/** Spec §3 "@severity": soft rules annotate outputs and stay hard on inputs. */
import { describe, expect, test } from "bun:test";
import { createSchemaTable } from "../../src/schema/schema-table";
import { ann, field, program, schema, t, tool } from "./build-ast";
import { specProgram } from "./fixtures";

const table = createSchemaTable(specProgram());

describe("§3 @severity", () => {
  test("on an output a failed soft rule annotates: ok stays true and the value is kept", () => {
    const value = { summary: "Fine.", score: 42 };
    const r = table.validate({ schema: "Answer" }, value, "output", "Answer");
    expect(r.ok).toBe(true);
    expect(r.hard).toEqual([]);
    expect(r.soft).toEqual([
      { path: "Answer.score", rule: "@range", message: "Answer.score must be <= 10 (@range).", severity: "soft" },
    ]);
    expect(r.value).toEqual({ summary: "Fine.", score: 42, lang: "en" });
  });

  test("on an input the same soft rule 'stays hard'", () => {
    const tbl = createSchemaTable(
      program(schema("R", field("ok", t.bool)), tool("rate", [field("score", t.int, ann("range", 0, 10), ann("severity", "soft"))], t.named("R"))),
    );
    const r = tbl.validate({ toolInput: "rate" }, { score: 42 }, "input", "rate.input");
    expect(r.ok).toBe(false);
    expect(r.soft).toEqual([]);
    expect(r.hard).toEqual([
      { path: "rate.input.score", rule: "@range", message: "rate.input.score must be <= 10 (@range).", severity: "hard" },
    ]);
  });

  test("only annotation rules are soft: a type mismatch on a soft field is hard on outputs too", () => {
    const r = table.validate({ schema: "Answer" }, { summary: "Fine.", score: "high" }, "output", "Answer");
    expect(r.ok).toBe(false);
    expect(r.hard.map((i) => [i.path, i.rule])).toEqual([["Answer.score", "type"]]);
    expect(r.soft).toEqual([]);
  });

  test("default severity is hard: a failed rule of a field without @severity fails the output", () => {
    const r = table.validate({ schema: "Answer" }, { summary: "", score: 42 }, "output", "Answer");
    expect(r.ok).toBe(false);
    expect(r.hard.map((i) => i.path)).toEqual(["Answer.summary"]);
    expect(r.soft.map((i) => i.path)).toEqual(["Answer.score"]);
  });

  test('@severity("hard") written out is the same as none', () => {
    const tbl = createSchemaTable(program(schema("S", field("n", t.int, ann("max", 1), ann("severity", "hard")))));
    expect(tbl.validate({ schema: "S" }, { n: 2 }, "output", "S").ok).toBe(false);
  });
});
