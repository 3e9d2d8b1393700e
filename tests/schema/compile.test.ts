/**
 * The schema compiler's guarantees: compiled once and cached (no compile on a hot call),
 * and a program the checker should have rejected fails as a LumaError, never a crash.
 */
import { afterAll, afterEach, describe, expect, spyOn, test } from "bun:test";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { createSchemaTable } from "../../src/schema/schema-table";
import { isLumaError, type LumaError } from "../../src/diagnostics/luma-error";
import type { Program } from "../../src/syntax/ast";
import { ann, field, program, schema, t, union } from "./build-ast";
import { specProgram } from "./fixtures";

const rejection = (p: Program): LumaError => {
  try {
    createSchemaTable(p);
  } catch (e) {
    if (isLumaError(e)) return e;
    throw e;
  }
  throw new Error("expected a LumaError");
};

describe("§2 'Schemas are compiled once': validator caching", () => {
  const spy = spyOn(TypeCompiler, "Compile");
  afterEach(() => spy.mockClear());
  afterAll(() => spy.mockRestore());

  test("the same compiled checker is reused for every validation of a target", () => {
    const table = createSchemaTable(specProgram());
    expect(spy).toHaveBeenCalledTimes(0); // nothing compiled before it is needed
    for (let i = 0; i < 5; i++) table.validate({ toolInput: "calculate" }, { a: i, b: 1, operation: "add" }, "input", "c");
    table.validate({ toolInput: "calculate" }, { a: -1, b: 1, operation: "add" }, "input", "c");
    expect(spy).toHaveBeenCalledTimes(1);
  });

  test("type references are compiled once per distinct type, whichever AST node names it", () => {
    const table = createSchemaTable(specProgram());
    const a = t.array(t.named("Customer"));
    const b = t.array(t.named("Customer"));
    expect(table.typeOf(a)).toBe(table.typeOf(b));
    table.validate(a, [], "output", "rows");
    table.validate(b, [], "output", "rows");
    expect(spy).toHaveBeenCalledTimes(1);
    expect(table.named("Answer")).toBe(table.named("Answer")!);
  });

  test("union members get one compiled check each, reused for every untagged input", () => {
    const table = createSchemaTable(specProgram());
    for (let i = 0; i < 3; i++) table.validate({ schema: "Document" }, { reference: `r${i}` }, "input", "d");
    expect(spy).toHaveBeenCalledTimes(3); // the union itself + Invoice + Receipt
  });
});

describe("§3 programs the checker should have rejected", () => {
  test("an unknown type name", () => {
    expect(rejection(program(schema("A", field("b", t.named("Missing"))))).message).toBe("Unknown schema 'Missing'.");
  });

  test("a recursive schema with no finite value is rejected without looping", () => {
    const e = rejection(program(schema("A", field("b", t.named("B"))), schema("B", field("a", t.named("A")))));
    expect(e.message).toBe("Schema 'A' is recursive with no finite value.");
    expect(e.phase).toBe("startup");
    // A default is always filled in: it does not end the recursion either.
    expect(rejection(program(schema("C", field("c?", t.named("C"), ann("default", {}))))).message).toBe(
      "Schema 'C' is recursive with no finite value.",
    );
  });

  test("a tag that clashes with a field of a member on the same cycle", () => {
    const p = program(schema("A", field("kind", t.string), field("next?", t.named("U"))), union("U", ["A"], "kind"));
    expect(rejection(p).message).toBe("Tag 'kind' of schema 'U' clashes with a field of member 'A'.");
  });

  test("a union member that is a union, and a tag that clashes with a member field", () => {
    expect(
      rejection(program(schema("A", field("x", t.int)), union("U", ["A"], "k"), union("V", ["U"], "k"))).message,
    ).toBe("Member 'U' of schema 'V' must be a plain schema, not a tagged union.");
    expect(rejection(program(schema("A", field("kind", t.string)), union("U", ["A"], "kind"))).message).toBe(
      "Tag 'kind' of schema 'U' clashes with a field of member 'A'.",
    );
  });

  test("duplicate schemas and fields", () => {
    expect(rejection(program(schema("A"), schema("A"))).message).toBe("Duplicate schema 'A'.");
    expect(rejection(program(schema("A", field("x", t.int), field("x", t.string)))).message).toBe("Duplicate field 'x' in A.");
  });
});
