/**
 * One builtins table (src/language/builtins.ts: name, arity, doc): the checker's types
 * (check/types/builtin-signatures.ts) and the runtime's implementations
 * (runtime/interpreter/builtins*.ts) cover exactly its rows, with its arity — a builtin the
 * checker did not know would be an "unknown function", one the runtime lacked an internal
 * error. (Both are also typed by its names, so a missing one does not compile.)
 */
import { describe, expect, test } from "bun:test";
import { BUILTINS as LANGUAGE, type BuiltinName } from "../../src/language/builtins";
import { BUILTIN_SIGNATURES } from "../../src/check/types/builtin-signatures";
import { BUILTINS as RUNTIME } from "../../src/runtime/interpreter/builtins";

describe("§7 builtins: one table of names and arities, read by the checker and the runtime", () => {
  test("the same names, arities and a signature and a doc line for each", () => {
    const runtime = Object.keys(RUNTIME).sort();
    expect(Object.keys(LANGUAGE).sort()).toEqual(runtime);
    expect(Object.keys(BUILTIN_SIGNATURES).sort()).toEqual(runtime);
    for (const name of runtime) {
      expect(LANGUAGE[name as BuiltinName].doc.length).toBeGreaterThan(10);
      expect({ name, min: LANGUAGE[name as BuiltinName].min, max: LANGUAGE[name as BuiltinName].max }).toEqual({ name, min: RUNTIME[name]!.min, max: RUNTIME[name]!.max });
    }
  });
  test("issue #12.1's builtins are all there", () => {
    for (const name of ["int", "float", "bool", "split", "join", "trim", "lower", "upper", "contains", "starts_with", "ends_with", "replace", "slice", "round", "fixed", "range", "sum", "min", "max", "exit"]) {
      expect(Object.hasOwn(RUNTIME, name)).toBe(true);
    }
  });
});
