/**
 * The checker's builtin tables (arity in src/check/builtins.ts, types in
 * check/types/builtin-signatures.ts) and the runtime's (runtime/interpreter/builtins*.ts)
 * name the same builtins with the same arity: a builtin the checker does not know would be
 * an "unknown function", one the runtime lacks an internal error.
 */
import { describe, expect, test } from "bun:test";
import { BUILTINS as CHECK_ARITY } from "../../src/check/builtins";
import { BUILTIN_SIGNATURES } from "../../src/check/types/builtin-signatures";
import { BUILTINS as RUNTIME } from "../../src/runtime/interpreter/builtins";

describe("§7 builtins: one set of names and arities in the checker and the runtime", () => {
  test("the same names, arities and a signature for each", () => {
    const runtime = Object.keys(RUNTIME).sort();
    expect(Object.keys(CHECK_ARITY).sort()).toEqual(runtime);
    expect(Object.keys(BUILTIN_SIGNATURES).sort()).toEqual(runtime);
    for (const name of runtime) {
      expect({ name, min: CHECK_ARITY[name].min, max: CHECK_ARITY[name].max }).toEqual({ name, min: RUNTIME[name]!.min, max: RUNTIME[name]!.max });
    }
  });
  test("issue #12.1's builtins are all there", () => {
    for (const name of ["int", "float", "bool", "split", "join", "trim", "lower", "upper", "contains", "starts_with", "ends_with", "replace", "slice", "round", "fixed", "range", "sum", "min", "max", "exit"]) {
      expect(Object.hasOwn(RUNTIME, name)).toBe(true);
    }
  });
});
