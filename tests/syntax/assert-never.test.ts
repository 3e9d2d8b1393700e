/**
 * `assertNever` at run time: reached only by a node of a kind this version does not know
 * (its compile-time half is `tests/exhaustive-switches.test.ts`). It throws an internal
 * LumaError naming the kind, or gives the site's own answer.
 */
import { describe, expect, test } from "bun:test";
import { LumaError } from "../../src/diagnostics/luma-error";
import { assertNever } from "../../src/syntax/assert-never";

const teleport = { kind: "Teleport", span: { file: "t.luma", start: 0, end: 3 } };

describe("assertNever", () => {
  test("without a fallback: an internal RUNTIME_ERROR naming the unknown kind", () => {
    let caught: unknown;
    try {
      assertNever(teleport as never);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(LumaError);
    expect((caught as LumaError).code).toBe("RUNTIME_ERROR");
    expect((caught as LumaError).message).toBe("Internal error: no case for a 'Teleport' node");
  });

  test("with a fallback: the site's own answer, given the node's kind and span", () => {
    expect(assertNever(teleport as never, (node) => `${node.kind}@${node.span?.start}`)).toBe("Teleport@0");
  });
});
